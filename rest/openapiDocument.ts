// The OpenAPI document (rest/openapi.yaml) is the source of truth for the /v1 routes and their validation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { projectRoot } from '../src/projectRoot.js';

export const openapiYaml = readFileSync(join(projectRoot, 'rest/openapi.yaml'), 'utf8');
export const openapiDocument = parse(openapiYaml) as OpenAPIV3_1.Document;

/**
 * The document as served: every server URL made absolute on PUBLIC_BASE_URL (`/v1` → `https://sps.example/v1`), so
 * a client generated from it works where there is no page to resolve a relative URL against (Node, curl).
 */
export function servedDocument(publicBaseUrl: string): { json: string; yaml: string } {
  const absolute = (url: unknown) => (typeof url === 'string' && url.startsWith('/') ? `${publicBaseUrl}${url}` : url);
  const yaml = parseDocument(openapiYaml);
  const serverLists = [['servers'], ...Object.keys(openapiDocument.paths ?? {}).map((path) => ['paths', path, 'servers'])];
  for (const list of serverLists)
    for (const [index] of ((yaml.getIn(list) as { items?: unknown[] } | undefined)?.items ?? []).entries())
      yaml.setIn([...list, index, 'url'], absolute(yaml.getIn([...list, index, 'url'])));
  return { json: JSON.stringify(yaml.toJS()), yaml: yaml.toString({ lineWidth: 0 }) };
}

/**
 * The part of the document openapi-backend routes under /v1: a path with servers of its own (the browser's
 * /oauth/*, at the root) and the dashboard's sign-in (/v1/auth/*, rest/dashboardAuth.ts) are routed elsewhere.
 */
export const v1Document: OpenAPIV3_1.Document = {
  ...openapiDocument,
  paths: Object.fromEntries(Object.entries(openapiDocument.paths ?? {}).filter(([path, item]) => !item?.servers && !path.startsWith('/auth/'))),
};
