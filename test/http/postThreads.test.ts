// Threads of posts and first comments through the API (issue 30): a three-part thread with an image in its second
// part published to a real Bluesky PDS (every part read back: a reply naming the first post as root and the part
// before as parent), a first comment as one more reply, each part checked against the network's rules, and a part
// a Mastodon instance refuses: the target fails with the parts posted so far, and a retry posts only the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPds, type PdsAccount, type TestPds } from '../support/pds.ts';
import { image } from '../support/mediaFiles.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, createWorkspace, keyFor } from '../support/fixtures.ts';
import { MastodonStandIn } from '../support/mastodon.ts';
import { connectSocialAccount } from '../../src/accounts/socialAccounts.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { setTimeout as sleep } from 'node:timers/promises';

let pds: TestPds;
let instance: MastodonStandIn;
let dana: PdsAccount;
let service: TestService;
let api: Api;
let apiKey: string;
let workspaceId: string;
let bluesky: string;
let sandbox: string;
let mastodon: string;
let picture: string;

beforeAll(async () => {
  pds = await startPds();
  dana = await pds.createAccount('dana');
  service = await startTestService({ NETWORK_ALLOWED_HOSTS: 'localhost,127.0.0.1' });
  const workspace = await createWorkspace(service.services);
  workspaceId = workspace.workspaceId;
  ({ apiKey } = await keyFor(service.services, workspace.workspaceId, workspace.ownerId, {
    scopes: ['posts:read', 'posts:write', 'accounts:read', 'accounts:write', 'media:read', 'media:write'],
  }));
  api = apiFor(service.url, apiKey);
  const connected = await api('POST', '/social-accounts', { provider: 'bluesky', identifier: dana.handle, appPassword: dana.appPassword, service: pds.url });
  bluesky = connected.body.data.id;
  sandbox = (await api('POST', '/social-accounts', { provider: 'sandbox', username: 'sandy' })).body.data.id;
  picture = await uploadPicture();
  instance = await MastodonStandIn.start();
  ({ connectionId: mastodon } = await connectSocialAccount(service.services.db, service.services.secrets, service.services.adapters, service.services.outbox, {
    workspaceId: workspace.workspaceId,
    provider: 'mastodon',
    username: 'alice',
    tokens: { accessToken: instance.issueToken(), extra: { instanceUrl: instance.url } },
  }));
}, 240_000);
afterAll(async () => {
  await service?.stop();
  await pds?.close();
  await instance?.stop();
});

/** A PNG put in the library through the API: its media id once processed. */
async function uploadPicture(): Promise<string> {
  const bytes = await image('png', 40, 30);
  const started = await api('POST', '/media/uploads', { filename: 'square.png', contentType: 'image/png', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(new URL(uploadUrl).origin, service.url), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 600 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

/** The data of the workspace's events of one type, oldest first (what webhooks deliver). */
async function eventsOf(type: string): Promise<Record<string, any>[]> {
  const { rows } = await service.services.db.pool.query('SELECT data FROM outbox_event WHERE workspace_id = $1 AND type = $2 ORDER BY sequence', [
    workspaceId,
    type,
  ]);
  return rows.map((row) => row.data);
}

async function recordAt(uri: string) {
  const [, , repo, collection, rkey] = uri.split('/');
  const { data } = await dana.agent.com.atproto.repo.getRecord({ repo: repo!, collection: collection!, rkey: rkey! });
  return { uri: data.uri, cid: data.cid!, value: data.value as Record<string, any> };
}

describe('a thread on Bluesky', () => {
  it('publishes each part once, in order, as a reply to the part before, and the first comment to the last part', async () => {
    const created = await api('POST', '/posts', {
      content: { caption: 'A thread 1/3', thread: [{ caption: 'A thread 2/3', mediaIds: [picture] }, { caption: 'A thread 3/3' }] },
      targets: [{ connectionId: bluesky, placement: 'feed', settings: { firstComment: 'Sources in the comment' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.content.thread).toEqual([
      { caption: 'A thread 2/3', mediaIds: [picture] },
      { caption: 'A thread 3/3', mediaIds: [] },
    ]);
    expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
    const post = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(post.status).toBe('published');
    const [target] = post.targets;
    expect(target.parts).toHaveLength(3);
    expect(target.remoteId).toBe(target.parts[0].remoteId);
    const [first, second, third] = await Promise.all(target.parts.map((part: { remoteId: string }) => recordAt(part.remoteId)));
    expect([first!.value.text, second!.value.text, third!.value.text]).toEqual(['A thread 1/3', 'A thread 2/3', 'A thread 3/3']);
    const ref = (record: { uri: string; cid: string }) => ({ uri: record.uri, cid: record.cid });
    expect(first!.value.reply).toBeUndefined();
    expect(second!.value.reply).toEqual({ root: ref(first!), parent: ref(first!) });
    expect(third!.value.reply).toEqual({ root: ref(first!), parent: ref(second!) });
    expect(second!.value.embed.$type).toBe('app.bsky.embed.images');
    expect(second!.value.embed.images).toHaveLength(1);
    expect(first!.value.embed).toBeUndefined();
    expect(target.firstComment).toMatchObject({ remoteId: expect.stringContaining('app.bsky.feed.post'), error: null });
    const comment = await recordAt(target.firstComment.remoteId);
    expect(comment.value).toMatchObject({ text: 'Sources in the comment', reply: { root: ref(first!), parent: ref(third!) } });
    // Each part once: the account's repository holds these four posts and no other.
    const { data } = await dana.agent.com.atproto.repo.listRecords({ repo: dana.did, collection: 'app.bsky.feed.post', limit: 100 });
    expect(data.records).toHaveLength(4);
  });
});

describe('a part the network refuses', () => {
  it('fails the target with the parts posted so far, and a retry posts only the missing parts', async () => {
    const texts = ['Resumed 1/3', 'Resumed 2/3', 'Resumed 3/3, the longest part'];
    const created = await api('POST', '/posts', {
      content: { caption: texts[0], thread: texts.slice(1).map((caption) => ({ caption })) },
      targets: [{ connectionId: mastodon, placement: 'feed' }],
    });
    expect(created.status).toBe(201);
    // The instance lowers its character limit after the post was checked: it refuses the third part (422) for good.
    const { maxCharacters } = instance.limits;
    instance.limits.maxCharacters = texts[1]!.length;
    const threadAtInstance = () => instance.statusesOf().filter((status) => status.text.startsWith('Resumed'));
    try {
      expect((await api('POST', `/posts/${created.body.data.id}/publish`)).status).toBe(202);
      const failed = await waitForPost(api, created.body.data.id, ['published', 'failed']);
      expect(failed.status).toBe('failed');
      const [target] = failed.targets;
      expect(target).toMatchObject({ status: 'failed', error: expect.objectContaining({ code: 'PROVIDER_REJECTED' }) });
      const posted = threadAtInstance();
      expect(posted.map((status) => status.text)).toEqual(texts.slice(0, 2));
      expect(target.parts.map((part: { remoteId: string }) => part.remoteId)).toEqual(posted.map((status) => status.id));
      const failedEvent = (await eventsOf('target.failed')).find((data) => data.targetId === target.id);
      expect(failedEvent?.parts).toEqual(target.parts);
    } finally {
      instance.limits.maxCharacters = maxCharacters;
    }

    expect((await api('POST', `/posts/${created.body.data.id}/retry`)).status).toBe(202);
    const published = await waitForPost(api, created.body.data.id, ['published', 'failed']);
    expect(published.status).toBe('published');
    const thread = threadAtInstance();
    expect(thread.map((status) => status.text)).toEqual(texts);
    expect(thread.map((status) => status.inReplyToId)).toEqual([null, thread[0]!.id, thread[1]!.id]);
    expect(published.targets[0].parts.map((part: { remoteId: string }) => part.remoteId)).toEqual(thread.map((status) => status.id));
    // Webhooks get the parts too: on the target's event and on the post's.
    const publishedEvent = (await eventsOf('target.published')).find((data) => data.targetId === published.targets[0].id);
    expect(publishedEvent).toMatchObject({ parts: published.targets[0].parts, firstComment: null });
    const postEvent = (await eventsOf('post.published')).find((data) => data.postId === published.id);
    expect(postEvent?.targets).toEqual([expect.objectContaining({ parts: published.targets[0].parts, firstComment: null })]);
  });
});

describe('the placements that take threads', () => {
  it('are the same in GraphQL as in REST, placement by placement', async () => {
    const { body } = await api('GET', '/providers');
    const inRest = Object.fromEntries(body.data.map((entry: any) => [entry.provider, entry.placements.map((placement: any) => placement.thread ?? null)]));
    const graph = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(apiKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ query: '{ providers { provider placements { thread { maxParts } } } }' }),
    }).then((response) => response.json());
    const inGraph = Object.fromEntries(
      graph.data.providers.map((entry: any) => [entry.provider.toLowerCase(), entry.placements.map((placement: any) => placement.thread)]),
    );
    expect(inGraph).toEqual(inRest);
    expect(inGraph.bluesky).toEqual([{ maxParts: 25 }]);
    expect(inGraph.linkedin).toEqual([null]);
  });
});

describe('checking the parts', () => {
  it('names the part and the field that break a rule of the network', async () => {
    const answer = await api('POST', '/posts', {
      content: { caption: 'Fine', thread: [{ caption: 'Fine too' }, { caption: 'é'.repeat(301) }, {}] },
      targets: [{ connectionId: bluesky, placement: 'feed' }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('PROVIDER_VALIDATION_FAILED');
    expect(answer.body.error.details).toEqual([
      expect.objectContaining({ field: 'content.thread[1].caption', code: 'caption.maxLength' }),
      expect.objectContaining({ field: 'content.thread[2].caption', code: 'content.empty' }),
    ]);
  });

  it('names a target’s own thread under its override', async () => {
    const answer = await api('POST', '/posts', {
      content: { caption: 'Fine' },
      targets: [{ connectionId: bluesky, placement: 'feed', override: { thread: [{ caption: 'é'.repeat(301) }] } }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([expect.objectContaining({ field: 'targets[0].override.thread[0].caption', code: 'caption.maxLength' })]);
  });

  it('refuses a thread aimed at a network without threads, naming the target, unless that target drops it', async () => {
    const content = { caption: 'Everywhere', thread: [{ caption: 'More' }] };
    const refused = await api('POST', '/posts', {
      content,
      targets: [
        { connectionId: bluesky, placement: 'feed' },
        { connectionId: sandbox, placement: 'feed' },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ field: 'targets[1].override.thread', code: 'thread.unsupported', message: expect.stringContaining('sandbox') }),
    ]);
    const dropped = await api('POST', '/posts', {
      content,
      targets: [
        { connectionId: bluesky, placement: 'feed' },
        { connectionId: sandbox, placement: 'feed', override: { thread: [] } },
      ],
    });
    expect(dropped.status).toBe(201);
    expect(dropped.body.data.targets[1].override).toEqual({ thread: [] });
  });

  it('refuses more than 25 parts with 400 details', async () => {
    const tooMany = await api('POST', '/posts', {
      content: { caption: 'Long', thread: Array.from({ length: 26 }, (_, index) => ({ caption: `${index}` })) },
      targets: [{ connectionId: bluesky, placement: 'feed' }],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual([expect.objectContaining({ field: 'content.thread' })]);
  });

  it('says which placements take threads, and how many parts', async () => {
    const { body } = await api('GET', '/providers');
    const threads = Object.fromEntries(body.data.map((entry: any) => [entry.provider, entry.placements[0].thread ?? null]));
    expect(threads).toMatchObject({
      x: { maxParts: 25 },
      bluesky: { maxParts: 25 },
      mastodon: { maxParts: 25 },
      threads: { maxParts: 25 },
      linkedin: null,
      tiktok: null,
    });
  });
});
