// A tool's zod schema as tools/list answers it: zod's JSON Schema (draft 7), then spelled the way clients that map
// tool schemas onto a narrower dialect (Gemini's OpenAPI subset, the MCP Inspector's --strict checks) accept:
// a nullable value is `anyOf` of single types, never a `type` array; an open object is `additionalProperties: true`,
// never the empty schema `{}`, which says nothing at all.
import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value maps names to schemas; every other object- or array-valued keyword holds schemas or values. */
const schemaMaps = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);
/** Keywords holding instance values (or names), never schemas. */
const valueKeywords = new Set(['enum', 'const', 'default', 'examples', 'required']);

function portable(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'type' && Array.isArray(value)) result.anyOf = value.map((type) => ({ type }));
    else if (keyword === 'additionalProperties' && isSchema(value) && Object.keys(value).length === 0) result.additionalProperties = true;
    else if (valueKeywords.has(keyword)) result[keyword] = value;
    else if (schemaMaps.has(keyword) && isSchema(value))
      result[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, subschema(sub)]));
    else if (Array.isArray(value)) result[keyword] = value.map(subschema);
    else result[keyword] = subschema(value);
  }
  return result;
}

const subschema = (value: unknown) => (isSchema(value) ? portable(value) : value);

export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return portable(z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonSchema);
}
