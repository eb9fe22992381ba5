// The operations of rest/openapi.yaml as the generated tests walk them (dereferenced by openapi-backend, the library
// that routes /v1), and a valid value for any of their schemas: a test makes every part of a request valid but the
// one it is about.
import fc from 'fast-check';
import { OpenAPIBackend } from 'openapi-backend';
import type { OpenAPIV3_1 } from 'openapi-types';
import { openapiDocument } from '../../rest/openapiDocument.ts';

export type Schema = OpenAPIV3_1.SchemaObject;
export type Parameter = OpenAPIV3_1.ParameterObject & { schema?: Schema };

export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/posts/{id}`. */
  path: string;
  /** Where the path is served (`/v1`, or the root for paths with servers of their own). */
  serverUrl: string;
  parameters: Parameter[];
  /** The schema of the JSON request body, when the operation takes one. */
  bodySchema: Schema | undefined;
  /** The security schemes any of which admits a call (`apiKey`, `dashboardSession`); none for a public operation. */
  schemes: string[];
  /** The documented answers: statuses (`200`, `4XX`) or `default`. */
  statuses: string[];
}

export async function documentedOperations(): Promise<DocumentedOperation[]> {
  const backend = new OpenAPIBackend<OpenAPIV3_1.Document>({ definition: structuredClone(openapiDocument) as never, quick: true, validate: false });
  await backend.init();
  const definition = backend.definition as OpenAPIV3_1.Document;
  return backend.getOperations().map((operation) => {
    const servers = definition.paths?.[operation.path]?.servers ?? operation.servers ?? definition.servers ?? [{ url: '/' }];
    const body = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content['application/json'];
    return {
      operationId: operation.operationId ?? `${operation.method} ${operation.path}`,
      method: operation.method.toUpperCase(),
      path: operation.path,
      serverUrl: servers[0]!.url.replace(/\/$/, ''),
      parameters: (operation.parameters ?? []) as Parameter[],
      bodySchema: body?.schema as Schema | undefined,
      schemes: operation.security?.some((requirement) => !Object.keys(requirement).length) ? [] : (operation.security ?? []).flatMap(Object.keys),
      statuses: Object.keys(operation.responses ?? {}),
    };
  });
}

/** Values for properties and parameters of these names, wherever they appear (real ids, a reachable URL). */
export type Hints = Readonly<Record<string, unknown>>;

const tomorrow = () => new Date(Date.now() + 86_400_000);

function validString(schema: Schema): string {
  switch (schema.format) {
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'date-time':
      return tomorrow().toISOString();
    case 'date':
      return tomorrow().toISOString().slice(0, 10);
    case 'email':
      return 'someone@example.test';
    case 'uri':
    case 'url':
      return 'https://example.test/';
  }
  if (schema.pattern) return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 1 })[0]!;
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

/** A value `schema` accepts: its first example, default or enum value, else the smallest one of its type. */
export function validValue(schema: Schema, hints: Hints = {}, name?: string): unknown {
  if (name !== undefined && name in hints) return hints[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const branch = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (branch) return validValue(branch as Schema, hints);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => validValue(part as Schema, hints)));
  const type = [schema.type ?? (schema.properties ? 'object' : 'string')].flat().find((candidate) => candidate !== 'null') ?? 'null';
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, validValue((schema.properties?.[key] ?? {}) as Schema, hints, key)]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => validValue((schema as { items?: Schema }).items ?? {}, hints));
    case 'integer':
    case 'number':
      return schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return validString(schema);
  }
}

/** Every property path a body schema describes (`content.caption`, `targets.0.placement`), down to `depth` levels. */
export function fieldPaths(schema: Schema, depth = 3, prefix: string[] = []): string[][] {
  if (depth === 0) return [];
  const object = (schema.oneOf?.[0] ?? schema.anyOf?.[0] ?? schema) as Schema;
  const [type] = [object.type].flat();
  const items = (object as { items?: Schema }).items;
  if (type === 'array' && items) return fieldPaths(items, depth - 1, [...prefix, '0']);
  return Object.entries(object.properties ?? {}).flatMap(([name, child]) => {
    const path = [...prefix, name];
    return [path, ...fieldPaths(child as Schema, depth - 1, path)];
  });
}

const admitsString = (schema: Schema): boolean =>
  [schema.type].flat().includes('string') ||
  [schema.const, ...(schema.enum ?? [])].some((value) => typeof value === 'string') ||
  [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].some((branch) => admitsString(branch as Schema));

/** Every path of a body schema whose value may be a string, array items (`content.mediaIds.0`) included. */
export function stringFieldPaths(schema: Schema, depth = 5, prefix: string[] = []): string[][] {
  const here = prefix.length && admitsString(schema) ? [prefix] : [];
  if (depth === 0) return here;
  const object = (schema.oneOf?.[0] ?? schema.anyOf?.[0] ?? schema) as Schema & { items?: Schema };
  const nested = object.items
    ? stringFieldPaths(object.items, depth - 1, [...prefix, '0'])
    : Object.entries(object.properties ?? {}).flatMap(([name, child]) => stringFieldPaths(child as Schema, depth - 1, [...prefix, name]));
  return [...here, ...nested];
}

/** A copy of `value` with `replacement` at `path`, creating the objects and arrays on the way. */
export function withValueAt(value: unknown, path: string[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (/^\d+$/.test(head)) {
    const array: unknown[] = Array.isArray(value) ? [...value] : [];
    array[Number(head)] = withValueAt(array[Number(head)], rest, replacement);
    return array;
  }
  const object: Record<string, unknown> = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
  object[head] = withValueAt(object[head], rest, replacement);
  return object;
}

/** The URL of a call: path and query values are inserted as given, so a test controls their encoding. */
export function urlOf(baseUrl: string, operation: DocumentedOperation, encodedPath: Record<string, string>, encodedQuery: Record<string, string>): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodedPath[name] ?? '');
  const query = Object.entries(encodedQuery)
    .map(([name, value]) => `${encodeURIComponent(name)}=${value}`)
    .join('&');
  return `${baseUrl}${operation.serverUrl}${path}${query ? `?${query}` : ''}`;
}
