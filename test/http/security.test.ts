// The common access checks, generated for every operation of rest/openapi.yaml (an operation is covered the moment
// it is documented): without a key, or with a mistyped one, 401; with a key lacking one of the scopes the domain's
// access table (src/access/operations.ts) requires, 403 naming that scope; on an id route with another workspace's
// object, 404, exactly as for an object that does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationRequirements } from '../../src/access/operations.ts';
import { scopes, type Scope } from '../../src/access/scopes.ts';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { documentedOperations, urlOf, validValue, type DocumentedOperation } from '../support/openapiOperations.ts';
import { bodyHints, createResources, resourceFor, type Resources } from '../support/resources.ts';
import { errorOf, errorShapeProblems, send, type Answer } from '../support/answers.ts';

/** The API's operations: those an API key admits (the dashboard's own /auth/* routes have tests of their own). */
const operations = (await documentedOperations()).filter((operation) => operation.schemes.includes('apiKey'));

let service: TestService;
let acme: TestWorkspace;
let acmeObjects: Resources;
let globexObjects: Resources;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', AI_PROVIDER: 'sandbox' }));
  acmeObjects = await createResources(service, acme);
  globexObjects = await createResources(service, await createWorkspace(service.services));
});
afterAll(() => service.stop());

/** A call of `operation` that is valid in every part, about the objects `pathObjects` (ids in its path). */
function call(operation: DocumentedOperation, headers: Record<string, string>, pathObjects: Resources = acmeObjects): Promise<Answer> {
  const path = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map(({ name }) => {
        const id = resourceFor(pathObjects, operation.path, name);
        if (!id) throw new Error(`No test object for {${name}} in ${operation.path}: add its kind to test/support/resources.ts`);
        return [name, id];
      }),
  );
  const query = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => [parameter.name, encodeURIComponent(String(validValue(parameter.schema ?? {}, {}, parameter.name)))]),
  );
  const body = operation.bodySchema && JSON.stringify(validValue(operation.bodySchema, bodyHints(acmeObjects)));
  return send(urlOf(service.url, operation, path, query), {
    method: operation.method,
    headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
    body,
  });
}

function expectRefusal(answer: Answer, status: number, code: string): ReturnType<typeof errorOf> {
  expect(errorShapeProblems(answer), answer.text).toEqual([]);
  expect(answer.status, answer.text).toBe(status);
  const error = errorOf(answer);
  expect(error.code).toBe(code);
  return error;
}

const allBut = (scope: Scope) => scopes.filter((candidate) => candidate !== scope);

describe.each(operations)('$method $path', (operation) => {
  const requirement = (operationRequirements as Record<string, { scopes: readonly Scope[] }>)[operation.operationId];
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');

  it('needs a key: none, or a mistyped one, is 401 UNAUTHENTICATED', async () => {
    expectRefusal(await call(operation, {}), 401, 'UNAUTHENTICATED');
    expectRefusal(await call(operation, bearer('sps_mistyped')), 401, 'UNAUTHENTICATED');
  });

  it(`is ${operation.operationId} in the domain's access table`, () => {
    expect(requirement, `add ${operation.operationId} to src/access/operations.ts`).toBeDefined();
  });

  for (const scope of requirement?.scopes ?? []) {
    it(`refuses a key without ${scope} with 403 FORBIDDEN naming the scope`, async () => {
      const { apiKey } = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: allBut(scope) });
      const error = expectRefusal(await call(operation, bearer(apiKey)), 403, 'FORBIDDEN');
      expect(error.message).toContain(scope);
    });
  }

  if (pathParameters.length) {
    it("answers 404 NOT_FOUND for another workspace's object", async () => {
      expectRefusal(await call(operation, bearer(acme.ownerKey), globexObjects), 404, 'NOT_FOUND');
    });
  }
});
