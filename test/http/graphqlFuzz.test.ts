// Property: whatever values a caller sends for the arguments of any query or mutation of the graph (wrong types,
// huge strings, NUL, bad ids, impossible dates, deep nesting, as variables or as literals), /graphql never answers
// 5xx, every error is in the API's shape with a known `extensions.code` and a requestId, and no answer carries a stack
// trace or SQL. The fields are read from the schema itself, so a new one is fuzzed without being listed here.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { graphSchema } from '../../schema/index.ts';
import { httpStatusByCode } from '../../src/errors/appError.ts';

let service: TestService;
let workspace: TestWorkspace;
/** Ids of real objects of the workspace, so that some calls get past "not found" into the operations. */
const realIds: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  workspace = await createWorkspace(service.services);
  const account = await connectSandbox(service.services, workspace.workspaceId);
  const post = await fetch(`${service.url}/v1/posts`, {
    method: 'POST',
    headers: bearer(workspace.ownerKey, { 'content-type': 'application/json' }),
    body: JSON.stringify({ content: { caption: 'Fuzzed' }, targets: [{ connectionId: account, placement: 'feed' }] }),
  }).then((response) => response.json());
  realIds.push(account, post.data.id, post.data.targets[0].id);
});
afterAll(() => service.stop());

const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '%FF%FE',
    '%',
    '%zz',
    '\uD800',
    '😀'.repeat(3),
    "' OR 1=1 --",
    '"; DROP TABLE post; --',
    '../../etc/passwd',
    '0000-01-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-12-31T23:59:60Z',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    'eyJhdCI6IjAwMDAtMDEtMDFUMDA6MDA6MDBaIiwiaWQiOiJ4In0',
    'monday',
    '25:99',
    'Mars/Olympus',
  ),
  fc.integer({ min: 1, max: 200_000 }).map((length) => 'x'.repeat(length)),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

const deepNesting = fc.integer({ min: 10, max: 2000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown);

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER),
  hostileText,
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileText, { maxKeys: 3 }),
  deepNesting,
);

/** A value of roughly the argument's type, often hostile inside. */
function arbitraryValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const nullable = getNullableType(type);
  if (depth > 4) return wrongType;
  if (isListType(nullable)) return fc.array(arbitraryValue(nullable.ofType as GraphQLInputType, depth + 1), { maxLength: 5 });
  if (isInputObjectType(nullable)) {
    const fields = Object.values(nullable.getFields());
    return fc.record(Object.fromEntries(fields.map((field) => [field.name, arbitraryValue(field.type, depth + 1)])), { requiredKeys: [] });
  }
  if (isEnumType(nullable)) return fc.constantFrom(...nullable.getValues().map((value) => value.name), 'NOT_A_VALUE');
  if (isScalarType(nullable)) {
    switch (nullable.name) {
      case 'Int':
        return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 101, 2 ** 31 - 1));
      case 'Float':
        return fc.double({ noNaN: true });
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(fc.constantFrom(...realIds), hostileText);
      default:
        return hostileText;
    }
  }
  return wrongType;
}

const argumentValue = (argument: GraphQLArgument) => fc.oneof({ weight: 3, arbitrary: arbitraryValue(argument.type) }, { weight: 1, arbitrary: wrongType });

/** A GraphQL literal for a JSON-like value (strings escaped as JSON, which GraphQL reads the same). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([name]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(name));
    return `{${fields.map(([name, item]) => `${name}: ${literal(item)}`).join(', ')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

function selectionOf(field: GraphQLField<unknown, unknown>): string {
  return isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
}

/** The operation calling `field` with these values, as variables or written into the document. */
function operation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, values: Record<string, unknown>, asLiterals: boolean) {
  const names = Object.keys(values);
  if (asLiterals) {
    const args = names.map((name) => `${name}: ${literal(values[name])}`).join(', ');
    return { query: `${kind} { ${field.name}${args ? `(${args})` : ''}${selectionOf(field)} }`, variables: {} };
  }
  const declarations = field.args.filter((arg) => names.includes(arg.name)).map((arg) => `$${arg.name}: ${arg.type.toString()}`);
  const args = names.map((name) => `${name}: $${name}`).join(', ');
  return {
    query: `${kind}${declarations.length ? `(${declarations.join(', ')})` : ''} { ${field.name}${args ? `(${args})` : ''}${selectionOf(field)} }`,
    variables: values,
  };
}

const knownCodes = new Set(Object.keys(httpStatusByCode));
/** A stack frame, a source path, SQL or a database error; the caller's own values may be echoed back. */
const leaks =
  /\\n\s+at |\((file|node):|node_modules|\.ts:\d+:\d+|Prisma|\bSELECT\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b|syntax error at or near|violates .+ constraint|invalid input syntax|originalError/;

async function send(body: { query: string; variables: Record<string, unknown> }) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: bearer(workspace.ownerKey, { 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${response.status} for ${body.query.slice(0, 300)}: ${text.slice(0, 500)}`).toBeLessThan(500);
  const answer = JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions?: { code?: string; requestId?: string } }[] };
  expect(answer.data !== undefined || answer.errors !== undefined).toBe(true);
  for (const error of answer.errors ?? []) {
    expect(knownCodes.has(error.extensions?.code ?? ''), `code of ${JSON.stringify(error).slice(0, 300)}`).toBe(true);
    expect(error.extensions?.requestId).toBe(response.headers.get('x-request-id'));
  }
  expect(text).not.toMatch(leaks);
}

const roots = [
  ['query', graphSchema.getQueryType()!],
  ['mutation', graphSchema.getMutationType()!],
] as const;

describe('every query and mutation of the graph, with hostile arguments', () => {
  for (const [kind, root] of roots) {
    for (const field of Object.values(root.getFields())) {
      it(`${kind} ${field.name}`, async () => {
        const argumentsOf = fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, argumentValue(arg)])), { requiredKeys: [] });
        await fc.assert(
          fc.asyncProperty(argumentsOf, fc.boolean(), async (values, asLiterals) => send(operation(kind, field, values, asLiterals))),
          { numRuns: 12, interruptAfterTimeLimit: 8000 },
        );
      });
    }
  }
});
