// The graph as a GraphQL engineer expects it: the domain's enums, relations instead of ids (resolved with a fixed
// number of SQL statements however long the list), REST's field names, and the committed SDL and codegen output.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '@graphql-codegen/cli';
import { startTestService, type TestService } from '../support/service.ts';
import { bearer, connectSandbox, createWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { image } from '../support/mediaFiles.ts';
import { apiFor } from '../support/posts.ts';
import { enumValueName } from '../../schema/enums.ts';
import { postStatuses, targetStatuses } from '../../src/posts/states.ts';
import { scopes } from '../../src/access/scopes.ts';
import { eventTypes } from '../../src/events/outbox.ts';
import { providerNames } from '../../src/providers/catalog.ts';
import codegenConfig from '../../codegen.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(() => service.stop());

async function graph(apiKey: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: bearer(apiKey, { 'content-type': 'application/json' }),
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(`graph answered errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** Uploads a real image through the graph (startUpload, the PUT, completeUpload) and waits until it is ready. */
async function readyImage(workspace: TestWorkspace, width: number): Promise<string> {
  const bytes = await image('png', width, 100);
  const { startUpload } = await graph(
    workspace.ownerKey,
    'mutation($size: Float!) { startUpload(filename: "photo.png", contentType: "image/png", size: $size) { id uploadUrl method headers } }',
    { size: bytes.length },
  );
  const put = await fetch(startUpload.uploadUrl.replace(service.services.config.publicBaseUrl, service.url), {
    method: startUpload.method,
    headers: startUpload.headers,
    body: new Uint8Array(bytes),
  });
  expect(put.ok).toBe(true);
  const { completeUpload } = await graph(workspace.ownerKey, 'mutation($id: ID!) { completeUpload(id: $id) { status } }', { id: startUpload.id });
  expect(completeUpload.status).toBe('PROCESSING');
  for (;;) {
    const { mediaFile } = await graph(workspace.ownerKey, 'query($id: ID!) { mediaFile(id: $id) { status } }', { id: startUpload.id });
    if (mediaFile.status === 'READY') return startUpload.id;
    expect(mediaFile.status).toBe('PROCESSING');
    await sleep(50);
  }
}

/** The table each SQL query Prisma sends while `work` runs reads from (`SELECT … FROM "public"."post" …` → post). */
async function tablesReadDuring(work: () => Promise<unknown>): Promise<string[]> {
  const read: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const table = /^SELECT .*? FROM "public"\."(\w+)"/s.exec(typeof first === 'string' ? first : (first?.text ?? ''))?.[1];
    if (table) read.push(table);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return read;
}

describe('enums', () => {
  it('are the domain’s lists, in upper case', async () => {
    const workspace = await createWorkspace(service.services);
    const values = async (name: string) =>
      (await graph(workspace.ownerKey, 'query($name: String!) { __type(name: $name) { enumValues { name } } }', { name })).__type.enumValues.map(
        (value: { name: string }) => value.name,
      );
    const sorted = (names: readonly string[]) => names.map(enumValueName).sort();
    expect(await values('PostStatus')).toEqual(sorted(postStatuses));
    expect(await values('TargetStatus')).toEqual(sorted(targetStatuses));
    expect(await values('Scope')).toEqual(sorted(scopes));
    expect(await values('EventKind')).toEqual(sorted(eventTypes));
    expect(await values('Provider')).toEqual(sorted(providerNames));
    expect(await values('Placement')).toEqual(['EVENT', 'FEED', 'LINK', 'OFFER', 'PHOTO', 'PIN', 'REEL', 'SHORT', 'STORY', 'TEXT', 'UPDATE', 'VIDEO']);
    expect(await values('Role')).toEqual(['ADMIN', 'EDITOR', 'OWNER', 'VIEWER']);
    expect(enumValueName('post.partially_published')).toBe('POST_PARTIALLY_PUBLISHED');
    expect(enumValueName('posts:read')).toBe('POSTS_READ');
  });

  it('carry REST’s values both ways: a post made over REST reads in the graph, a webhook made in the graph reads over REST', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const api = apiFor(service.url, workspace.ownerKey);
    const made = await api('POST', '/posts', { content: { caption: 'Both ways' }, targets: [{ connectionId: account, placement: 'feed' }] });
    const { post } = await graph(workspace.ownerKey, 'query($id: ID!) { post(id: $id) { status targets { provider placement status } } }', {
      id: made.body.data.id,
    });
    expect(post).toEqual({ status: 'DRAFT', targets: [{ provider: 'SANDBOX', placement: 'FEED', status: 'PENDING' }] });

    const { createWebhook } = await graph(
      workspace.ownerKey,
      'mutation { createWebhook(url: "http://127.0.0.1:9/hook", events: [POST_PUBLISHED, TARGET_FAILED]) { id events } }',
    );
    expect(createWebhook.events).toEqual(['POST_PUBLISHED', 'TARGET_FAILED']);
    expect((await api('GET', `/webhooks/${createWebhook.id}`)).body.data.events).toEqual(['post.published', 'target.failed']);
  });
});

describe('REST’s field names', () => {
  it('content { caption mediaIds }, override { caption }, settings as JSON, and findings with `code` as in error details', async () => {
    const workspace = await createWorkspace(service.services);
    const account = await connectSandbox(service.services, workspace.workspaceId);
    const { createPost } = await graph(
      workspace.ownerKey,
      `mutation($targets: [TargetInput!]!) {
        createPost(content: { caption: "Short" }, targets: $targets) {
          id content { caption mediaIds } targets { override { caption } settings validation { valid problems { code field message } } }
        }
      }`,
      { targets: [{ connectionId: account, placement: 'FEED', override: { caption: 'x'.repeat(400) } }] },
    );
    expect(createPost.content).toEqual({ caption: 'Short', mediaIds: [] });
    expect(createPost.targets[0]).toMatchObject({ override: { caption: 'x'.repeat(400) }, settings: {}, validation: { valid: true, problems: [] } });

    const rest = await apiFor(service.url, workspace.ownerKey)('GET', `/posts/${createPost.id}`);
    expect(rest.body.data.content).toEqual({ ...createPost.content, thread: [] });
    expect(rest.body.data.targets[0].override).toEqual(createPost.targets[0].override);

    // A caption the sandbox no longer takes: the stored post now has a finding, named as a refusal's detail would be.
    await service.services.db.prisma.postTarget.updateMany({ where: { postId: createPost.id }, data: { overrideCaption: 'x'.repeat(501) } });
    const { post } = await graph(workspace.ownerKey, 'query($id: ID!) { post(id: $id) { targets { validation { valid problems { code field } } } } }', {
      id: createPost.id,
    });
    expect(post.targets[0].validation).toEqual({ valid: false, problems: [{ code: 'caption.maxLength', field: 'caption' }] });
    const refused = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(workspace.ownerKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({
        query: 'mutation($targets: [TargetInput!]!) { createPost(content: { caption: "ok" }, targets: $targets) { id } }',
        variables: { targets: [{ connectionId: account, placement: 'FEED', override: { caption: 'x'.repeat(501) } }] },
      }),
    }).then((response) => response.json());
    expect(refused.errors[0].extensions).toMatchObject({
      code: 'PROVIDER_VALIDATION_FAILED',
      details: [{ field: 'targets[0].caption', code: 'caption.maxLength' }],
    });
  });
});

describe('relations', () => {
  let workspace: TestWorkspace;
  let accounts: string[];
  let files: string[];
  let queueId: string;

  beforeAll(async () => {
    workspace = await createWorkspace(service.services);
    accounts = [await connectSandbox(service.services, workspace.workspaceId), await connectSandbox(service.services, workspace.workspaceId)];
    files = [await readyImage(workspace, 100), await readyImage(workspace, 120), await readyImage(workspace, 140)];
    const { createQueue } = await graph(
      workspace.ownerKey,
      'mutation { createQueue(name: "Daily", timezone: "UTC", slots: [{ day: MONDAY, time: "09:00" }, { day: THURSDAY, time: "09:00" }]) { id } }',
    );
    queueId = createQueue.id;
    for (let i = 0; i < 6; i++) {
      const { createPost } = await graph(
        workspace.ownerKey,
        'mutation($content: PostContentInput!, $targets: [TargetInput!]!) { createPost(content: $content, targets: $targets) { id } }',
        {
          content: { caption: `Post ${i}`, mediaIds: [files[i % 3], files[(i + 1) % 3]] },
          targets: accounts.map((connectionId) => ({ connectionId, placement: 'FEED' })),
        },
      );
      if (i < 2)
        await graph(workspace.ownerKey, 'mutation($id: ID!, $queueId: ID!) { queuePost(id: $id, queueId: $queueId) { id } }', { id: createPost.id, queueId });
    }
  });

  const dashboard = `query($first: Int) {
    posts(first: $first) { edges { node {
      id content { mediaIds }
      media { id width usedBy { id } }
      targets { account { id username } validation { valid } }
    } } }
  }`;

  it('resolve posts with their media, targets’ accounts and validation', async () => {
    const { posts } = await graph(workspace.ownerKey, dashboard, { first: 6 });
    const nodes = posts.edges.map((edge: { node: unknown }) => edge.node);
    expect(nodes).toHaveLength(6);
    for (const node of nodes) {
      expect(node.media.map((file: { id: string }) => file.id)).toEqual(node.content.mediaIds);
      expect(node.targets.map((target: { account: { id: string } }) => target.account.id)).toEqual(accounts);
      expect(node.targets.every((target: { validation: { valid: boolean } }) => target.validation.valid)).toBe(true);
      for (const file of node.media) expect(file.usedBy.map((user: { id: string }) => user.id)).toContain(node.id);
    }
    // Each file is named by 4 of the 6 posts.
    expect(nodes[0].media[0].usedBy).toHaveLength(4);
  });

  it('cost a fixed number of SQL statements however many posts are listed (no N+1)', async () => {
    const forTwo = await tablesReadDuring(() => graph(workspace.ownerKey, dashboard, { first: 2 }));
    const forSix = await tablesReadDuring(() => graph(workspace.ownerKey, dashboard, { first: 6 }));
    // The page of posts with their targets and accounts (Prisma reads one table per relation level), the files of
    // every post at once, and at once the posts using any of those files, with their targets and accounts.
    const snapshot = ['post', 'post_target', 'social_account', 'media', 'post', 'post_target', 'social_account'];
    expect(forTwo).toEqual(snapshot);
    expect(forSix).toEqual(snapshot);
  });

  it('name each post of analytics by post with its caption, networks and first file’s thumbnail, every post read at once', async () => {
    const { prisma } = service.services.db;
    const targets = await prisma.postTarget.findMany({ where: { post: { workspaceId: workspace.workspaceId } }, include: { account: true } });
    const day = new Date().toISOString().slice(0, 10);
    await prisma.targetMetricDay.createMany({
      data: targets.map((target, index) => ({
        targetId: target.id,
        day: new Date(day),
        workspaceId: workspace.workspaceId,
        postId: target.postId,
        connectionId: target.connectionId,
        provider: target.account.provider,
        likes: index + 1,
        collectedAt: new Date(),
      })),
    });
    const byPost = `query($day: String!) {
      analytics(from: $day, to: $day, groupBy: POST) { rows { key post { id content { caption } providers thumbnailUrl media { thumbnailUrl } } } }
      byDay: analytics(from: $day, to: $day) { rows { post { id } } }
    }`;
    type Named = { id: string; content: { caption: string }; providers: string[]; thumbnailUrl: string; media: { thumbnailUrl: string }[] };
    let answer: { analytics: { rows: { key: string; post: Named }[] }; byDay: { rows: { post: null }[] } } | undefined;
    const read = await tablesReadDuring(async () => (answer = await graph(workspace.ownerKey, byPost, { day })));
    const rows = answer!.analytics.rows;
    expect(rows).toHaveLength(6);
    for (const { key, post } of rows) {
      // Two accounts of one network: the network once.
      expect(post).toMatchObject({ id: key, content: { caption: expect.stringMatching(/^Post \d$/) }, providers: ['SANDBOX'] });
      expect(new URL(post.thumbnailUrl).pathname).toBe(new URL(post.media[0]!.thumbnailUrl).pathname);
    }
    expect(answer!.byDay.rows).toEqual([{ post: null }]);
    // The rows come from the metrics' own SQL; then the posts of every row with their targets and accounts, and
    // their files, one query each however many rows.
    expect(read).toEqual(['post', 'post_target', 'social_account', 'media']);
  });

  it('resolve a queue’s posts with one query per table, and a delivery’s endpoint', async () => {
    let queues: { edges: { node: { id: string; posts: { status: string; queueId: string }[] } }[] } | undefined;
    const forQueues = await tablesReadDuring(
      async () =>
        ({ queues } = await graph(
          workspace.ownerKey,
          '{ queues(first: 5) { edges { node { id posts { id status queueId targets { account { username } } } } } } }',
        )),
    );
    const [queue] = queues!.edges.map((edge) => edge.node);
    expect(queue!.posts).toHaveLength(2);
    expect(queue!.posts.every((post) => post.status === 'SCHEDULED' && post.queueId === queueId)).toBe(true);
    expect(forQueues).toEqual(['queue', 'post', 'post_target', 'social_account']);

    const { createWebhook } = await graph(workspace.ownerKey, 'mutation { createWebhook(url: "http://127.0.0.1:9/hook") { id } }');
    for (let i = 0; i < 3; i++) await graph(workspace.ownerKey, 'mutation($id: ID!) { testWebhook(id: $id) }', { id: createWebhook.id });
    const deliveries = 'query($id: ID!) { webhookDeliveries(endpointId: $id, first: 10) { edges { node { eventType status endpoint { id url } } } } }';
    const { webhookDeliveries } = await graph(workspace.ownerKey, deliveries, { id: createWebhook.id });
    expect(webhookDeliveries.edges).toHaveLength(3);
    for (const { node } of webhookDeliveries.edges)
      expect(node).toMatchObject({ eventType: 'WEBHOOK_TEST', endpoint: { id: createWebhook.id, url: 'http://127.0.0.1:9/hook' } });
  });

  it('need the related object’s read scope: usedBy lists posts only for keys with posts:read', async () => {
    const { createApiKey } = await graph(workspace.ownerKey, 'mutation { createApiKey(scopes: [MEDIA_READ]) { apiKey } }');
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: bearer(createApiKey.apiKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ query: '{ media(first: 1) { edges { node { id usedBy { id } } } } }' }),
    }).then((r) => r.json());
    expect(response.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(response.errors[0].message).toBe('API key needs the posts:read scope for listPosts.');
  });
});

describe('the committed schema and its codegen output', () => {
  it('codegen’s output is what codegen makes of schema/schema.graphql now (run `npm run codegen`)', { timeout: 180_000 }, async () => {
    const outputs = await generate({ ...codegenConfig, cwd: new URL('../..', import.meta.url).pathname, silent: true }, false);
    expect(outputs.map((output: { filename: string }) => output.filename)).toEqual(['schema/generated/graphql.ts']);
    for (const output of outputs as { filename: string; content: string }[]) {
      expect(output.content).toBe(readFileSync(new URL(`../../${output.filename}`, import.meta.url), 'utf8'));
    }
  });
});
