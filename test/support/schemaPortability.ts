// The MCP Inspector's tool-schema portability checks (`--strict`; its core/json/schemaLint.ts, read in
// node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js), as one function: each finding is a
// place in a schema some client may reject the tool for, or silently drop the constraint of.
type Schema = { [keyword: string]: unknown };

export interface Finding {
  rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema';
  path: string;
}

/** Where `true`/`false` are values, not schemas in a schema's place. */
const booleanValued = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const schemaValued = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', ...booleanValued, 'contentSchema'];
const schemaArrays = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const schemaMaps = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
/** Keywords that constrain a value; a schema with none of them accepts anything. */
const constraining = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const jsonTypes = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function* subschemas(schema: Schema, path: string): Generator<[unknown, string, string]> {
  for (const keyword of schemaMaps) {
    const map = schema[keyword];
    if (isSchema(map)) for (const [name, sub] of Object.entries(map)) yield [sub, `${path}.${keyword}.${name}`, keyword];
  }
  for (const keyword of schemaArrays) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const [index, sub] of list.entries()) yield [sub, `${path}.${keyword}[${index}]`, keyword];
  }
  for (const keyword of schemaValued) {
    if (!(keyword in schema)) continue;
    const value = schema[keyword];
    if (keyword === 'items' && Array.isArray(value)) for (const [index, sub] of value.entries()) yield [sub, `${path}.items[${index}]`, keyword];
    else yield [value, `${path}.${keyword}`, keyword];
  }
}

const hasEmbeddedIds = (schema: unknown): boolean =>
  isSchema(schema) && ((typeof schema.$id === 'string' && schema.$id !== '') || [...subschemas(schema, '')].some(([sub]) => hasEmbeddedIds(sub)));

export function portabilityFindings(root: unknown, rootPath: string): Finding[] {
  const findings: Finding[] = [];
  const embeddedIds = hasEmbeddedIds(root);
  const walk = (node: unknown, path: string, keyword: string | undefined) => {
    if (typeof node === 'boolean') {
      if (!(keyword && booleanValued.has(keyword))) findings.push({ rule: 'boolean-schema', path });
      return;
    }
    if (!isSchema(node)) return;
    const { type, $ref } = node;
    if (Array.isArray(type) && type.length > 0 && type.every((t) => jsonTypes.has(t)) && new Set(type).size === type.length)
      findings.push({ rule: 'type-union', path });
    if (typeof $ref === 'string' && $ref !== '' && !$ref.startsWith('#') && !embeddedIds) findings.push({ rule: 'remote-ref', path });
    const constrains = Object.keys(node).some((key) => constraining.has(key)) || ('if' in node && ('then' in node || 'else' in node));
    if (!constrains && keyword !== 'not') findings.push({ rule: 'untyped-schema', path });
    for (const [sub, subPath, subKeyword] of subschemas(node, path)) walk(sub, subPath, subKeyword);
  };
  walk(root, rootPath, undefined);
  return findings;
}
