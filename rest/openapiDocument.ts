// The OpenAPI document (rest/openapi.yaml) is the source of truth for the /v1 routes and their validation.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';

export const openapiYaml = readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8');
export const openapiDocument = parse(openapiYaml) as OpenAPIV3_1.Document;
export const openapiJson = JSON.stringify(openapiDocument);
