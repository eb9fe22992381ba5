// Limits section: N requests a minute per person and workspace, shared by all their keys and sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { addPerson, bearer, createWorkspace, keyFor } from '../support/fixtures.ts';
import { startOfFreshWindow } from '../support/rateWindow.ts';

const limit = 6;
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: String(limit) });
});
afterAll(() => service.stop());

const call = (headers: Record<string, string>) => fetch(`${service.url}/v1/social-accounts`, { headers });

describe('rate limit', () => {
  it('is shared by two keys and the session of one person, and not by another person', async () => {
    const password = 'a long enough password';
    const acme = await createWorkspace(service.services, { password });
    const secondKey = await keyFor(service.services, acme.workspaceId, acme.ownerId);
    const colleague = await addPerson(service.services, acme.workspaceId, 'admin');
    const colleagueKey = await keyFor(service.services, acme.workspaceId, colleague.userId);
    const owner = await service.services.db.prisma.user.findUniqueOrThrow({ where: { id: acme.ownerId } });
    const login = await fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password }),
    });
    const session = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-workspace-id': acme.workspaceId };

    await startOfFreshWindow(20);
    const remaining: string[] = [];
    for (const headers of [bearer(acme.ownerKey), bearer(secondKey.apiKey), session, bearer(acme.ownerKey), bearer(secondKey.apiKey), session]) {
      const response = await call(headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${limit};w=60`);
      remaining.push(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')![1]!);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);

    for (const headers of [bearer(secondKey.apiKey), session]) {
      const limited = await call({ ...headers, 'accept-language': 'en' });
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = await limited.json();
      expect(body.error.code).toBe('RATE_LIMITED');
      expect(body.error.message).toBe(`Too many requests: the limit is ${limit} per minute. Retry in ${retryAfter} seconds.`);
      expect(limited.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=0;t=${retryAfter}$`));
    }

    const other = await call(bearer(colleagueKey.apiKey));
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toMatch(/^"default";r=5;t=\d+$/);
  });

  it('counts a person separately in each workspace', async () => {
    const first = await createWorkspace(service.services);
    const second = await createWorkspace(service.services);
    await startOfFreshWindow(10);
    for (let i = 0; i < limit; i++) expect((await call(bearer(first.ownerKey))).status).toBe(200);
    expect((await call(bearer(first.ownerKey))).status).toBe(429);
    expect((await call(bearer(second.ownerKey))).status).toBe(200);
  });
});
