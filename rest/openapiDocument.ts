// The OpenAPI document (rest/openapi.yaml) is the source of truth for the /v1 routes and their validation. What it
// would otherwise repeat of the list of networks (src/providers/networks.ts) is filled in as it loads: the Provider
// and Placement enums and the credential fields of POST /social-accounts, so a network added to the list is in the
// document, and in what is validated, without an edit here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { projectRoot } from '../src/projectRoot.js';
import { placementNames, providerNames } from '../src/providers/catalog.ts';
import { networks } from '../src/providers/networks.ts';

const credentialsPath = ['paths', '/social-accounts', 'post', 'requestBody', 'content', 'application/json', 'schema', 'properties', 'credentials'];

/** Each credential network's fields as the `credentials` object's properties (a name two networks share: the first's form, both described). */
function credentialProperties(): Record<string, Record<string, unknown>> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const network of networks) {
    if (network.connection.method !== 'credentials') continue;
    for (const field of network.connection.fields) {
      const description = `${network.displayName}: ${field.label}. ${field.help}`;
      const known = properties[field.name];
      if (known) known.description = `${known.description} ${description}`;
      else
        properties[field.name] = {
          type: 'string',
          minLength: 1,
          maxLength: field.maxLength,
          ...(field.pattern ? { pattern: field.pattern } : {}),
          ...(field.secret ? { format: 'password' } : {}),
          description,
        };
    }
  }
  return properties;
}

function loadDocument() {
  const document = parseDocument(readFileSync(join(projectRoot, 'rest/openapi.yaml'), 'utf8'));
  document.setIn(['components', 'schemas', 'Provider', 'enum'], document.createNode(providerNames, { flow: true }));
  document.setIn(['components', 'schemas', 'Placement', 'enum'], document.createNode(placementNames, { flow: true }));
  document.setIn([...credentialsPath, 'properties'], document.createNode(credentialProperties()));
  return document;
}

/** The document as loaded, the networks' parts filled in. */
export const openapiYaml = loadDocument().toString({ lineWidth: 0 });
export const openapiDocument = parseDocument(openapiYaml).toJS() as OpenAPIV3_1.Document;

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
