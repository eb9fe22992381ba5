// Cross-origin reads: /graphql answers CORS, with credentials, only to the dashboard's own origin (PUBLIC_BASE_URL's)
// and the origins in CORS_ALLOWED_ORIGINS. Any other page gets no CORS header at all, so the browser keeps the
// answer from it; /v1 and /mcp answer CORS to nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { bearer, type TestWorkspace } from '../support/fixtures.ts';

const ownOrigin = 'https://sps.example';
const partnerOrigin = 'https://partner.example';
const evilOrigin = 'https://evil.example';

let service: TestService;
let acme: TestWorkspace;

beforeAll(async () => {
  ({ service, acme } = await serviceWithWorkspace({
    PUBLIC_BASE_URL: `${ownOrigin}/`,
    CORS_ALLOWED_ORIGINS: `${partnerOrigin}/`,
    MCP_ALLOWED_HOSTS: '127.0.0.1',
  }));
});
afterAll(() => service.stop());

function askGraph(origin: string) {
  return fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', ...bearer(acme.ownerKey) },
    body: JSON.stringify({ query: '{ viewer { workspaceId } }' }),
  });
}

function preflight(path: string, origin: string) {
  return fetch(`${service.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-workspace-id' },
  });
}

const corsHeadersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-allow-')));

describe('/graphql', () => {
  it('answers another origin without any CORS header, its answer and its preflight', async () => {
    const answer = await askGraph(evilOrigin);
    expect(answer.status).toBe(200);
    expect(corsHeadersOf(answer)).toEqual({});
    expect(answer.headers.get('vary')).toMatch(/\bOrigin\b/i);
    expect(corsHeadersOf(await preflight('/graphql', evilOrigin))).toEqual({});
    // A sandboxed frame's origin is "null": never one the service trusts.
    expect(corsHeadersOf(await askGraph('null'))).toEqual({});
  });

  it('answers the dashboard’s own origin and a configured one with credentials', async () => {
    for (const origin of [ownOrigin, partnerOrigin]) {
      const answer = await askGraph(origin);
      expect(answer.status, origin).toBe(200);
      expect((await answer.json()).data.viewer.workspaceId).toBe(acme.workspaceId);
      expect(corsHeadersOf(answer), origin).toEqual({ 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' });
      expect(answer.headers.get('vary')).toMatch(/\bOrigin\b/i);
      expect(answer.headers.get('access-control-expose-headers')).toMatch(/x-request-id/i);

      const allowed = await preflight('/graphql', origin);
      expect(allowed.status, origin).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b/);
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/\bcontent-type\b/);
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/\bx-workspace-id\b/);
    }
  });
});

describe('/v1 and /mcp', () => {
  it('answer no origin with CORS headers', async () => {
    for (const origin of [evilOrigin, ownOrigin]) {
      const rest = await fetch(`${service.url}/v1/posts`, { headers: { origin, ...bearer(acme.ownerKey) } });
      expect(rest.status).toBe(200);
      expect(corsHeadersOf(rest), origin).toEqual({});
      expect(corsHeadersOf(await preflight('/v1/posts', origin)), origin).toEqual({});
      const mcp = await fetch(`${service.url}/mcp`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(acme.ownerKey) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cors-test', version: '1' } },
        }),
      });
      expect(mcp.status).toBe(200);
      expect(corsHeadersOf(mcp), origin).toEqual({});
    }
  });
});
