// Feeds over HTTP: an RSS or Atom feed on a local host whose new items become posts once, whatever polls them.
// Polls are triggered directly (the poller the service runs each minute), with the clock given where backoff is at stake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';
import { connectSandbox, createWorkspace, keyFor, type TestWorkspace } from '../support/fixtures.ts';
import { apiFor, type Api } from '../support/posts.ts';
import { startFeedHost, type FeedHost } from '../support/feedServer.ts';

let service: TestService;
let host: FeedHost;
let acme: TestWorkspace;
let api: Api;
let account: string;
const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', FEEDS_POLL_SECONDS: '600', FEEDS_MAX_BYTES: '65536' };

beforeAll(async () => {
  [service, host] = await Promise.all([startTestService(env), startFeedHost()]);
  acme = await createWorkspace(service.services);
  api = apiFor(service.url, acme.ownerKey);
  account = await connectSandbox(service.services, acme.workspaceId);
});
afterAll(async () => {
  await service.stop();
  await host.close();
});

let paths = 0;
const newPath = () => `/feed-${++paths}.xml`;
const poll = (id: string, now?: Date) => service.services.feeds.poller.poll(id, now);

async function postsOfFeed(caption: RegExp, client = api) {
  const { body } = await client('GET', '/posts?limit=100');
  return (body.data as { caption?: string; content: { caption: string }; status: string; queueId: string | null }[]).filter((post) =>
    caption.test(post.content.caption),
  );
}

async function createFeed(body: Record<string, unknown>) {
  const response = await api('POST', '/feeds', { connectionIds: [account], mode: 'draft', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string; status: string };
}

describe('feeds', () => {
  it('refuses bad input with details, saving nothing', async () => {
    const before = (await api('GET', '/feeds?limit=100')).body.data.length;
    const missing = await api('POST', '/feeds', { mode: 'weekly' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['url', 'connectionIds', 'mode']));
    const wrong = await api('POST', '/feeds', {
      url: host.url('/x.xml'),
      connectionIds: [account],
      placement: 'billboard',
      mode: 'queue',
      template: '{{title}} {{author}}',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'template', code: 'unknownPlaceholder' })]);
    const references = await api('POST', '/feeds', { url: host.url('/x.xml'), connectionIds: [account], placement: 'billboard', mode: 'queue' });
    expect(references.status).toBe(400);
    expect(references.body.error.details).toEqual([
      expect.objectContaining({ field: 'placement', code: 'unknownPlacement' }),
      expect.objectContaining({ field: 'queueId', code: 'required' }),
    ]);
    const german = await api('POST', '/feeds', { url: host.url('/x.xml'), connectionIds: [account], mode: 'queue' }, { 'accept-language': 'de' });
    expect(german.body.error.details[0].message).toBe('Ein Feed im Modus queue braucht eine queueId.');
    expect((await api('GET', '/feeds?limit=100')).body.data).toHaveLength(before);
  });

  it('refuses a feed at a private address (SSRF) and plain http to a host the operator did not list', async () => {
    const privateHost = await api('POST', '/feeds', { url: 'https://10.20.30.40/feed.xml', connectionIds: [account], mode: 'draft' });
    expect(privateHost.status).toBe(400);
    expect(privateHost.body.error.details).toEqual([expect.objectContaining({ field: 'url', code: 'privateAddress' })]);
    const loopbackName = await api('POST', '/feeds', { url: 'http://127.0.0.2/feed.xml', connectionIds: [account], mode: 'draft' });
    expect(loopbackName.body.error.details).toEqual([expect.objectContaining({ field: 'url', code: 'httpsRequired' })]);
    expect(host.requests.filter((request) => request.path === '/feed.xml')).toEqual([]);
  });

  it('records an RSS feed on its first poll, then posts each new item once as a draft, asking with If-None-Match', async () => {
    const path = newPath();
    host.feed(path).items.push({ title: 'Old news', link: 'https://blog.example/old', id: 'old-1' });
    const feed = await createFeed({ url: host.url(path), template: 'RSS: {{title}} → {{link}}' });
    expect(feed.status).toBe('new');
    await poll(feed.id);
    expect(await postsOfFeed(/^RSS: /)).toEqual([]);
    expect((await api('GET', `/feeds/${feed.id}`)).body.data).toMatchObject({ status: 'active', lastError: null });

    host
      .feed(path)
      .items.unshift({ title: 'Fresh & new', link: 'https://blog.example/fresh', id: 'fresh-1' }, { title: 'No guid', link: 'https://blog.example/no-guid' });
    await poll(feed.id);
    const posts = await postsOfFeed(/^RSS: /);
    expect(posts.map((post) => post.content.caption).sort()).toEqual([
      'RSS: Fresh & new → https://blog.example/fresh',
      'RSS: No guid → https://blog.example/no-guid',
    ]);
    expect(posts.every((post) => post.status === 'draft')).toBe(true);

    const before = host.requests.length;
    await poll(feed.id);
    const conditional = host.requests.slice(before);
    expect(conditional).toEqual([expect.objectContaining({ path, status: 304 })]);
    expect(conditional[0]!.headers['if-none-match']).toMatch(/^"v\d+"$/);
    expect(await postsOfFeed(/^RSS: /)).toHaveLength(2);
  });

  it('puts new Atom entries in the queue’s next slot, asking with If-Modified-Since', async () => {
    const queue = (await api('POST', '/queues', { name: 'Feed slots', timezone: 'Europe/Paris', slots: [{ day: 'monday', time: '09:00' }] })).body.data;
    const path = newPath();
    host.feed(path, 'atom').items.push({ title: 'Before', link: 'https://blog.example/a0', id: 'tag:blog.example,2026:a0' });
    const feed = await createFeed({ url: host.url(path), mode: 'queue', queueId: queue.id, template: 'Atom {{title}}' });
    await poll(feed.id);
    host
      .feed(path)
      .items.unshift(
        { title: 'Second', link: 'https://blog.example/a2', id: 'tag:blog.example,2026:a2' },
        { title: 'First', link: 'https://blog.example/a1', id: 'tag:blog.example,2026:a1' },
      );
    await poll(feed.id);
    const posts = await postsOfFeed(/^Atom /);
    expect(posts).toHaveLength(2);
    expect(posts.every((post) => post.status === 'scheduled' && post.queueId === queue.id)).toBe(true);
    const byCaption = Object.fromEntries(posts.map((post) => [post.content.caption, (post as unknown as { scheduledAt: string }).scheduledAt]));
    // Oldest first: the entry listed last takes the earlier slot.
    expect(Date.parse(byCaption['Atom First']!)).toBeLessThan(Date.parse(byCaption['Atom Second']!));
    const before = host.requests.length;
    await poll(feed.id);
    expect(host.requests.slice(before)).toEqual([expect.objectContaining({ status: 304 })]);
    expect(host.requests.at(-1)!.headers['if-modified-since']).toBeTruthy();
  });

  it('makes each item one post across two workers polling at once and across a restart', async () => {
    const path = newPath();
    host.feed(path).items.push({ title: 'Seen', link: 'https://blog.example/s', id: 'seen' });
    const feed = await createFeed({ url: host.url(path), template: 'Twice? {{title}}' });
    await poll(feed.id);
    host.feed(path).items.unshift(...[1, 2, 3].map((n) => ({ title: `item ${n}`, link: `https://blog.example/${n}`, id: `n${n}` })));
    const second = await startTestService(env, service.databaseUrl);
    try {
      await Promise.all([poll(feed.id), second.services.feeds.poller.poll(feed.id), poll(feed.id)]);
    } finally {
      await second.stop();
    }
    expect((await postsOfFeed(/^Twice\? /)).map((post) => post.content.caption).sort()).toEqual(['Twice? item 1', 'Twice? item 2', 'Twice? item 3']);

    // A restarted service that lost the validators (a changed ETag makes the host send the whole feed) posts nothing again.
    const restarted = await startTestService(env, service.databaseUrl);
    try {
      host.feed(path).items.push({ title: 'Older, unseen before?', link: 'https://blog.example/s', id: 'seen' });
      await restarted.services.feeds.poller.poll(feed.id);
    } finally {
      await restarted.stop();
    }
    expect(await postsOfFeed(/^Twice\? /)).toHaveLength(3);
  });

  it('shows a failing feed’s last error and backs off, doubling the wait and honouring Retry-After', async () => {
    const path = newPath();
    const document = host.feed(path);
    const feed = await createFeed({ url: host.url(path) });
    document.failWith = { status: 503 };
    const t0 = new Date(Date.now() + 3600_000);
    await poll(feed.id, t0);
    const failing = (await api('GET', `/feeds/${feed.id}`)).body.data;
    expect(failing).toMatchObject({ status: 'failing', consecutiveFailures: 1, lastError: { code: 'status', message: 'The feed answered HTTP 503.' } });
    expect(Date.parse(failing.nextPollAt) - t0.getTime()).toBe(2 * 600_000);

    const asked = () => host.requests.filter((request) => request.path === path).length;
    const before = asked();
    await service.services.feeds.poller.pollDue(new Date(t0.getTime() + 600_000 + 1000));
    expect(asked()).toBe(before);
    document.failWith = { status: 429, retryAfter: String(24 * 3600 * 2) };
    const t1 = new Date(Date.parse(failing.nextPollAt));
    await service.services.feeds.poller.pollDue(t1);
    expect(asked()).toBe(before + 1);
    const backedOff = (await api('GET', `/feeds/${feed.id}`)).body.data;
    expect(backedOff).toMatchObject({ consecutiveFailures: 2, lastError: { code: 'status' } });
    expect(Date.parse(backedOff.nextPollAt) - t1.getTime()).toBe(2 * 24 * 3600_000);

    document.failWith = undefined;
    await poll(feed.id, new Date(Date.parse(backedOff.nextPollAt)));
    expect((await api('GET', `/feeds/${feed.id}`)).body.data).toMatchObject({ status: 'active', consecutiveFailures: 0, lastError: null });
  });

  it('refuses a redirect to a private address at poll time (SSRF), as the URL itself would be', async () => {
    const path = newPath();
    const feed = await createFeed({ url: host.url(path) });
    host.feed(path).redirectTo = 'https://10.9.8.7/internal.xml';
    await poll(feed.id);
    expect((await api('GET', `/feeds/${feed.id}`)).body.data.lastError).toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/10\.9\.8\.7, which is not a public address.*WEBHOOK_ALLOWED_HOSTS/),
    });
  });

  it('skips an item whose post the network’s rules refuse, with the reason kept, and posts the others', async () => {
    const path = newPath();
    host.feed(path);
    const feed = await createFeed({ url: host.url(path), template: 'Rules {{title}}' });
    await poll(feed.id);
    host
      .feed(path)
      .items.unshift(
        { title: 'fits', link: 'https://blog.example/fits', id: 'fits' },
        { title: 'x'.repeat(600), link: 'https://blog.example/long', id: 'long' },
      );
    await poll(feed.id);
    expect((await postsOfFeed(/^Rules /)).map((post) => post.content.caption)).toEqual(['Rules fits']);
    const refused = await service.services.db.prisma.feedItem.findFirstOrThrow({ where: { feedId: feed.id, key: 'long' } });
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'PROVIDER_VALIDATION_FAILED', postId: null });
    expect((await api('GET', `/feeds/${feed.id}`)).body.data).toMatchObject({ status: 'active', lastError: null });
  });

  it('fails a feed that is not RSS or Atom, or larger than FEEDS_MAX_BYTES', async () => {
    const page = newPath();
    host.feed(page).html = true;
    const notFeed = await createFeed({ url: host.url(page) });
    await poll(notFeed.id);
    expect((await api('GET', `/feeds/${notFeed.id}`)).body.data.lastError).toMatchObject({ code: 'unreadable' });
    const flood = newPath();
    host.feed(flood).endless = true;
    const huge = await createFeed({ url: host.url(flood) });
    await poll(huge.id);
    expect((await api('GET', `/feeds/${huge.id}`)).body.data.lastError).toMatchObject({ code: 'tooLarge', message: 'The feed is larger than 65,536 bytes.' });
  });

  it('changes and deletes feeds; another workspace’s feed does not exist; reads need posts:read, changes posts:write', async () => {
    const feed = await createFeed({ url: host.url(newPath()) });
    const changed = await api('PATCH', `/feeds/${feed.id}`, { template: '{{link}}', placement: 'feed' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ template: '{{link}}', placement: 'feed', mode: 'draft' });
    expect((await api('PATCH', `/feeds/${feed.id}`, { mode: 'queue' })).body.error.details).toEqual([expect.objectContaining({ field: 'queueId' })]);

    const other = await createWorkspace(service.services);
    const otherApi = apiFor(service.url, other.ownerKey);
    expect((await otherApi('GET', `/feeds/${feed.id}`)).status).toBe(404);
    expect((await otherApi('PATCH', `/feeds/${feed.id}`, { template: 'x' })).status).toBe(404);
    expect((await otherApi('DELETE', `/feeds/${feed.id}`)).status).toBe(404);
    expect((await otherApi('GET', '/feeds')).body.data).toEqual([]);

    const readOnly = apiFor(service.url, (await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' })).apiKey);
    expect((await readOnly('GET', `/feeds/${feed.id}`)).status).toBe(200);
    const refused = await readOnly('POST', '/feeds', { url: host.url('/y.xml'), connectionIds: [account], mode: 'draft' });
    expect(refused.status).toBe(403);

    expect((await api('DELETE', `/feeds/${feed.id}`)).status).toBe(204);
    expect((await api('GET', `/feeds/${feed.id}`)).status).toBe(404);
  });
});

describe('feeds in the graph', () => {
  async function graph(query: string, variables: Record<string, unknown> = {}, apiKey = acme.ownerKey) {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return response.json() as Promise<{
      data?: any;
      errors?: { message: string; extensions: { code: string; details?: { field: string; code: string }[] } }[];
    }>;
  }

  it('creates, lists, changes and deletes feeds with REST’s rules and error codes', async () => {
    const create = `mutation ($url: String!, $ids: [ID!]!, $mode: FeedMode!, $template: String) {
      createFeed(url: $url, connectionIds: $ids, mode: $mode, template: $template) { id url mode status template lastError { code } }
    }`;
    const bad = await graph(create, { url: 'https://10.0.0.9/feed', ids: [account], mode: 'DRAFT' });
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ field: 'url', code: 'privateAddress' })],
    });
    const created = await graph(create, { url: host.url(newPath()), ids: [account], mode: 'DRAFT', template: 'G {{title}}' });
    expect(created.data.createFeed).toMatchObject({ mode: 'DRAFT', status: 'NEW', template: 'G {{title}}', lastError: null });
    const id = created.data.createFeed.id;
    const listed = await graph('{ feeds(first: 100) { edges { node { id } } } }');
    expect(listed.data.feeds.edges.map((edge: { node: { id: string } }) => edge.node.id)).toContain(id);
    const changed = await graph('mutation ($id: ID!) { updateFeed(id: $id, template: "{{link}}") { template } }', { id });
    expect(changed.data.updateFeed.template).toBe('{{link}}');
    const readOnly = (await keyFor(service.services, acme.workspaceId, acme.ownerId, { preset: 'read-only' })).apiKey;
    expect((await graph('mutation ($id: ID!) { deleteFeed(id: $id) }', { id }, readOnly)).errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect((await graph('mutation ($id: ID!) { deleteFeed(id: $id) }', { id })).data.deleteFeed).toBe(true);
    expect((await graph('query ($id: ID!) { feed(id: $id) { id } }', { id })).errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });
});
