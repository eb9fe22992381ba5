// A URL the service refuses is refused with the setting the operator would change to let it through: a webhook
// and a media import name WEBHOOK_ALLOWED_HOSTS, a network URL NETWORK_ALLOWED_HOSTS, a return address
// REDIRECT_ALLOWED_ORIGINS. And the allow-lists take `localhost` and 127.0.0.1 for each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';

let service: TestService;
let acme: TestWorkspace;
let api: Api;

beforeAll(async () => {
  service = await startTestService({ WEBHOOK_ALLOWED_HOSTS: 'localhost', NETWORK_ALLOWED_HOSTS: '127.0.0.1', NETWORK_TIMEOUT_MS: '1000' });
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
});
afterAll(() => service.stop());

/** The one detail of a 400 refusal. */
async function refusal(method: string, path: string, body: unknown): Promise<{ field: string; code: string; message: string }> {
  const answer = await api(method, path, body);
  expect(answer.status, JSON.stringify(body)).toBe(400);
  expect(answer.body.error.details).toHaveLength(1);
  return answer.body.error.details[0];
}

async function mediaImportRefusal(url: string): Promise<{ field: string; code: string; message: string }> {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(acme.ownerKey) },
    body: JSON.stringify({ query: 'mutation ($url: String) { uploadMedia(url: $url) { id } }', variables: { url } }),
  });
  const { errors } = await response.json();
  expect(errors[0].extensions.code).toBe('INVALID_REQUEST');
  return errors[0].extensions.details[0];
}

describe('refusals name the setting that allows the host', () => {
  it('a webhook: WEBHOOK_ALLOWED_HOSTS', async () => {
    const privateHost = await refusal('POST', '/webhooks', { url: 'https://10.1.2.3/hook' });
    expect(privateHost).toMatchObject({ field: 'url', code: 'privateAddress' });
    expect(privateHost.message).toContain('WEBHOOK_ALLOWED_HOSTS');
    const plainHttp = await refusal('POST', '/webhooks', { url: 'http://example.com/hook' });
    expect(plainHttp).toMatchObject({ field: 'url', code: 'httpsRequired' });
    expect(plainHttp.message).toContain('WEBHOOK_ALLOWED_HOSTS');
  });

  it('a media import from a URL: WEBHOOK_ALLOWED_HOSTS', async () => {
    const privateHost = await mediaImportRefusal('https://10.1.2.3/photo.jpg');
    expect(privateHost).toMatchObject({ field: 'url', code: 'privateAddress' });
    expect(privateHost.message).toContain('WEBHOOK_ALLOWED_HOSTS');
    const plainHttp = await mediaImportRefusal('http://example.com/photo.jpg');
    expect(plainHttp).toMatchObject({ field: 'url', code: 'httpsRequired' });
    expect(plainHttp.message).toContain('WEBHOOK_ALLOWED_HOSTS');
  });

  it('a Mastodon instance or a Bluesky PDS: NETWORK_ALLOWED_HOSTS', async () => {
    const instance = await refusal('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'https://10.1.2.3' });
    expect(instance).toMatchObject({ field: 'instanceUrl', code: 'privateAddress' });
    expect(instance.message).toContain('NETWORK_ALLOWED_HOSTS');
    const plainHttp = await refusal('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'http://mastodon.example' });
    expect(plainHttp).toMatchObject({ field: 'instanceUrl', code: 'httpsRequired' });
    expect(plainHttp.message).toContain('NETWORK_ALLOWED_HOSTS');
    const pds = await refusal('POST', '/social-accounts', {
      provider: 'bluesky',
      identifier: 'a.test',
      appPassword: 'abcd-efgh-ijkl-mnop',
      service: 'https://[fd00::1]',
    });
    expect(pds).toMatchObject({ field: 'service', code: 'privateAddress' });
    expect(pds.message).toContain('NETWORK_ALLOWED_HOSTS');
  });

  it('where a person is sent back after connecting: REDIRECT_ALLOWED_ORIGINS', async () => {
    const elsewhere = await refusal('POST', '/social-accounts/connect', {
      provider: 'mastodon',
      instanceUrl: 'https://mastodon.example',
      redirectUri: 'https://app.example/accounts',
    });
    expect(elsewhere).toMatchObject({ field: 'redirectUri', code: 'notAllowed' });
    expect(elsewhere.message).toContain('REDIRECT_ALLOWED_ORIGINS');
  });
});

describe('localhost and 127.0.0.1 in the allow-lists', () => {
  it('WEBHOOK_ALLOWED_HOSTS=localhost admits a webhook at 127.0.0.1 and at ::1', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook']) {
      expect((await api('POST', '/webhooks', { url })).status, url).toBe(201);
    }
  });

  it('NETWORK_ALLOWED_HOSTS=127.0.0.1 admits an instance at localhost (it is called, and does not answer)', async () => {
    const answer = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: 'http://localhost:9' });
    expect(answer.body.error.code).toBe('PROVIDER_UNAVAILABLE');
  });
});
