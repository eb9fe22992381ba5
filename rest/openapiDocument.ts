// The OpenAPI document (rest/openapi.yaml) is the source of truth for the /v1 routes and their validation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { projectRoot } from '../src/projectRoot.js';

export const openapiYaml = readFileSync(join(projectRoot, 'rest/openapi.yaml'), 'utf8');
export const openapiDocument = parse(openapiYaml) as OpenAPIV3_1.Document;
export const openapiJson = JSON.stringify(openapiDocument);

/**
 * The part of the document openapi-backend routes under /v1: a path with servers of its own (the browser's
 * /oauth/*, at the root) and the dashboard's sign-in (/v1/auth/*, rest/dashboardAuth.ts) are routed elsewhere.
 */
export const v1Document: OpenAPIV3_1.Document = {
  ...openapiDocument,
  paths: Object.fromEntries(Object.entries(openapiDocument.paths ?? {}).filter(([path, item]) => !item?.servers && !path.startsWith('/auth/'))),
};
