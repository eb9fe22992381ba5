// Authentication section of the spec: who may call, and the 400/401/402/403/404 answers when they may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestService } from '../support/service.ts';
import { serviceWithWorkspace } from '../support/serviceWithWorkspace.ts';
import { addPerson, bearer, connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { revokeApiKey } from '../../src/access/apiKeys.ts';
import { removeUser, setPlan, setUserRole } from '../../src/workspaces/workspaces.ts';

let service: TestService;
let acme: TestWorkspace;
const accountFailures = 3;
const addressFailures = 5;

beforeAll(async () => {
  // Sign-in throttling at small limits, and the client address from X-Forwarded-For when sent over loopback.
  ({ service, acme } = await serviceWithWorkspace({
    LOGIN_FAILURES_PER_ACCOUNT: String(accountFailures),
    LOGIN_FAILURES_PER_ADDRESS: String(addressFailures),
    TRUST_PROXY: 'loopback',
  }));
});
afterAll(() => service.stop());

const accounts = (headers: Record<string, string> = {}) => fetch(`${service.url}/v1/social-accounts`, { headers });

async function expectError(response: Response, status: number, code: string) {
  const body = await response.json();
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
  return body.error as { code: string; message: string; details?: { field: string; code: string; message: string }[] };
}

describe('401 UNAUTHENTICATED', () => {
  it('answers a missing key, a mistyped one, another scheme, a revoked and an expired key alike', async () => {
    const revoked = await keyFor(service.services, acme.workspaceId, acme.ownerId);
    await revokeApiKey(service.services.db, revoked.keyId);
    const expiring = await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only', expiresAt: new Date(Date.now() + 1500) });
    expect((await accounts(bearer(expiring.apiKey))).status).toBe(200);
    await sleep(1600);

    const messages = new Set<string>();
    for (const headers of [
      {},
      bearer(`${acme.ownerKey}x`),
      bearer('sps_not-a-key'),
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: 'Bearer' },
      bearer(revoked.apiKey),
      bearer(expiring.apiKey),
    ]) {
      messages.add((await expectError(await accounts(headers), 401, 'UNAUTHENTICATED')).message);
    }
    // One message for every cause: the answer does not reveal whether a key exists, was revoked or expired.
    expect(messages.size).toBe(1);
  });

  it('revokes the keys of a person removed from the workspace', async () => {
    const admin = await addPerson(service.services, acme.workspaceId, 'admin');
    const key = await keyFor(service.services, acme.workspaceId, admin.userId);
    expect((await accounts(bearer(key.apiKey))).status).toBe(200);
    await removeUser(service.services.db, { workspaceId: acme.workspaceId, userId: admin.userId });
    await expectError(await accounts(bearer(key.apiKey)), 401, 'UNAUTHENTICATED');
  });
});

describe('402 ENTITLEMENT_EXCEEDED', () => {
  it('refuses keys when no plan is in force, and when the plan lacks API access', async () => {
    const workspace = await createWorkspace(service.services);
    await setPlan(service.services.db, { workspaceId: workspace.workspaceId, plan: 'pro', expired: true });
    expect((await expectError(await accounts(bearer(workspace.ownerKey)), 402, 'ENTITLEMENT_EXCEEDED')).message).toMatch(/no plan in force/);
    await setPlan(service.services.db, { workspaceId: workspace.workspaceId, plan: 'free' });
    expect((await expectError(await accounts(bearer(workspace.ownerKey)), 402, 'ENTITLEMENT_EXCEEDED')).message).toMatch(
      /free plan does not include API access/,
    );
    await setPlan(service.services.db, { workspaceId: workspace.workspaceId, plan: 'business' });
    expect((await accounts(bearer(workspace.ownerKey))).status).toBe(200);
  });
});

describe('403 FORBIDDEN', () => {
  it('names the missing scope and the operation', async () => {
    const key = await keyFor(service.services, acme.workspaceId, acme.ownerId, { scopes: ['posts:read'] });
    const error = await expectError(await accounts(bearer(key.apiKey)), 403, 'FORBIDDEN');
    expect(error.message).toBe('API key needs the accounts:read scope for listSocialAccounts.');
  });

  it('applies when the creator’s role is lowered after the key was made', async () => {
    const admin = await addPerson(service.services, acme.workspaceId, 'admin');
    const key = await keyFor(service.services, acme.workspaceId, admin.userId, { scopes: ['accounts:read'] });
    const requestLog = () =>
      fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: bearer(key.apiKey, { 'content-type': 'application/json' }),
        body: JSON.stringify({ query: '{ requestLog(first: 1) { edges { node { id } } } }' }),
      }).then((r) => r.json());
    expect((await requestLog()).errors).toBeUndefined();
    await setUserRole(service.services.db, { workspaceId: acme.workspaceId, userId: admin.userId, role: 'editor' });
    const lowered = await requestLog();
    expect(lowered.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(lowered.errors[0].message).toBe('The editor role does not allow requestLog.');
  });
});

describe('404 NOT_FOUND across workspaces', () => {
  it('never shows another workspace’s object, nor lists it', async () => {
    const other = await createWorkspace(service.services);
    const theirs = await connectSandbox(service.services, other.workspaceId);
    const ours = await connectSandbox(service.services, acme.workspaceId);
    await expectError(await fetch(`${service.url}/v1/social-accounts/${theirs}`, { headers: bearer(acme.ownerKey) }), 404, 'NOT_FOUND');
    await expectError(await fetch(`${service.url}/v1/social-accounts/not-a-uuid`, { headers: bearer(acme.ownerKey) }), 404, 'NOT_FOUND');
    expect((await fetch(`${service.url}/v1/social-accounts/${ours}`, { headers: bearer(acme.ownerKey) })).status).toBe(200);
    const listed = await (await accounts(bearer(acme.ownerKey))).json();
    expect(listed.data.map((a: { id: string }) => a.id)).toContain(ours);
    expect(listed.data.map((a: { id: string }) => a.id)).not.toContain(theirs);
  });
});

describe('dashboard session', () => {
  async function signIn(email: string, password: string) {
    const response = await fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return response;
  }

  it('signs in with a cookie, requires x-workspace-id, and signs out', async () => {
    const password = 'correct horse battery staple';
    const editor = await addPerson(service.services, acme.workspaceId, 'editor', password);
    await expectError(await signIn(editor.email, 'wrong password'), 401, 'UNAUTHENTICATED');

    const login = await signIn(editor.email, password);
    expect(login.status).toBe(204);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/sps_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;

    const session = await (await fetch(`${service.url}/auth/session`, { headers: { cookie } })).json();
    expect(session.data.workspaces).toEqual([expect.objectContaining({ id: acme.workspaceId, role: 'editor' })]);

    await expectError(await accounts({ cookie }), 400, 'WORKSPACE_REQUIRED');
    expect((await accounts({ cookie, 'x-workspace-id': acme.workspaceId })).status).toBe(200);
    const other = await createWorkspace(service.services);
    await expectError(await accounts({ cookie, 'x-workspace-id': other.workspaceId }), 404, 'NOT_FOUND');

    expect((await fetch(`${service.url}/auth/logout`, { method: 'POST', headers: { cookie } })).status).toBe(204);
    await expectError(await accounts({ cookie, 'x-workspace-id': acme.workspaceId }), 401, 'UNAUTHENTICATED');
  });

  it('answers a login body that is not JSON, or lacks fields, with 400', async () => {
    const bad = await fetch(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
    await expectError(bad, 400, 'INVALID_JSON');
    const missing = await fetch(`${service.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const error = await expectError(missing, 400, 'INVALID_REQUEST');
    expect(error.details?.map((d) => d.field)).toEqual(['email', 'password']);
  });
});

describe('sign-in brute-force guard', () => {
  const password = 'correct horse battery staple';
  let addresses = 0;
  /** A client address of its own (TEST-NET-3), so each test counts alone per address. */
  const freshAddress = () => `203.0.113.${++addresses}`;

  function logIn(email: string, attempt: string, address: string, language = 'en') {
    return fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address, 'accept-language': language },
      body: JSON.stringify({ email, password: attempt }),
    });
  }

  async function statusesOf(attempts: Promise<Response>[]) {
    return Promise.all(attempts).then((responses) => responses.map((response) => response.status));
  }

  async function expectThrottled(response: Response, language: 'en' | 'de' = 'en') {
    const error = await expectError(response, 429, 'RATE_LIMITED');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.message).toBe(
      language === 'de'
        ? `Zu viele fehlgeschlagene Anmeldeversuche. Bitte in ${retryAfter.toLocaleString('de')} Sekunden erneut versuchen.`
        : `Too many failed sign-in attempts. Retry in ${retryAfter.toLocaleString('en')} seconds.`,
    );
    return retryAfter;
  }

  it('throttles an account after its failures, from any address and even with the right password', async () => {
    const person = await addPerson(service.services, acme.workspaceId, 'editor', password);
    const address = freshAddress();
    for (let i = 0; i < accountFailures; i++) await expectError(await logIn(person.email, 'wrong password', address), 401, 'UNAUTHENTICATED');

    const retryAfter = await expectThrottled(await logIn(person.email, password, freshAddress(), 'de'), 'de');
    // The bucket gives one attempt back every hour / accountFailures.
    expect(retryAfter).toBeLessThanOrEqual(3600 / accountFailures);
    expect(retryAfter).toBeGreaterThan(3600 / accountFailures - 60);
  });

  it('answers an unknown email exactly as a known one, throttling included', async () => {
    const person = await addPerson(service.services, acme.workspaceId, 'viewer', password);
    const unknown = `nobody-${Date.now()}@example.test`;
    const answers = async (email: string) => {
      const address = freshAddress();
      const responses = [];
      for (let i = 0; i <= accountFailures; i++) responses.push(await logIn(email, 'wrong password', address));
      return Promise.all(
        responses.map(async (response) => {
          const { error } = await response.json();
          // The wait may differ by a second between the two runs.
          const message = (error.message as string).replace(/\d+/g, 'N');
          return { status: response.status, code: error.code, message, retryAfter: response.headers.get('retry-after') !== null };
        }),
      );
    };
    const known = await answers(person.email);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(await answers(unknown)).toEqual(known);
  });

  it('throttles an address that tries many accounts, and not another address', async () => {
    const address = freshAddress();
    const emails = Array.from({ length: addressFailures + 1 }, (_, i) => `spray-${i}-${Date.now()}@example.test`);
    const statuses = [];
    for (const email of emails) statuses.push((await logIn(email, 'wrong password', address)).status);
    expect(statuses).toEqual([...Array(addressFailures).fill(401), 429]);
    await expectThrottled(await logIn(emails.at(-1)!, 'wrong password', address));
    await expectError(await logIn(emails.at(-1)!, 'wrong password', freshAddress()), 401, 'UNAUTHENTICATED');
  });

  it('counts an IPv6 client by its /64 network', async () => {
    const network = `2001:db8:0:${++addresses}`;
    const statuses = [];
    for (let host = 1; host <= addressFailures + 1; host++) {
      statuses.push((await logIn(`v6-${host}-${Date.now()}@example.test`, 'wrong password', `${network}::${host}`)).status);
    }
    expect(statuses).toEqual([...Array(addressFailures).fill(401), 429]);
    await expectError(await logIn(`v6-${Date.now()}@example.test`, 'wrong password', `2001:db8:1:${addresses}::1`), 401, 'UNAUTHENTICATED');
  });

  it('counts attempts made at once, before any password is checked', async () => {
    const person = await addPerson(service.services, acme.workspaceId, 'viewer', password);
    const statuses = await statusesOf(Array.from({ length: 8 }, () => logIn(person.email, 'wrong password', freshAddress())));
    expect(statuses.filter((status) => status === 401)).toHaveLength(accountFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8 - accountFailures);
  });

  it('forgets an account’s failures when its person signs in', async () => {
    const person = await addPerson(service.services, acme.workspaceId, 'viewer', password);
    const address = freshAddress();
    for (let i = 0; i < accountFailures - 1; i++) await expectError(await logIn(person.email, 'typo', address), 401, 'UNAUTHENTICATED');
    expect((await logIn(person.email, password, address)).status).toBe(204);
    for (let i = 0; i < accountFailures; i++) await expectError(await logIn(person.email, 'typo', address), 401, 'UNAUTHENTICATED');
    await expectThrottled(await logIn(person.email, password, freshAddress()));
  });
});
