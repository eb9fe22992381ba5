// The worker killed between Threads publishing a container and the service learning of it: after a restart the
// interrupted publish step is looked up (the container PUBLISHED, the profile's newest thread with the same text),
// and the post is at Threads exactly once, its container published once and never before it was FINISHED.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.ts';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { image } from '../support/mediaFiles.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { MetaStandIn } from '../support/meta.ts';

const publicBaseUrl = 'https://publisher.example';
let env: Record<string, string>;
let apiKey: string;
let meta: MetaStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  meta = await MetaStandIn.start({ redirectUris: [`${publicBaseUrl}/oauth/callback/threads`], processingReads: 1 });
  meta.threadsProfile = { id: '31770', username: 'lind.ceramics', name: 'Lind Ceramics' };
  env = {
    DATABASE_URL: await createTestDatabase(),
    ENCRYPTION_KEY: Buffer.alloc(32, 6).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: publicBaseUrl,
    ...meta.threadsSettings,
  };
  ({ apiKey } = await setupWithCli(env, { name: 'Threads crash', email: 'threads-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await meta?.stop();
});

describe('publishing to Threads across a crash', () => {
  it('publishes the container once when the worker is killed after Threads published it and before its answer came', async () => {
    const first = await servers.start(env);
    meta.mediaOrigin = { from: publicBaseUrl, to: first.url };
    const api = apiFor(first.url, apiKey);
    const started = await api('POST', '/social-accounts/connect', { provider: 'threads' });
    const person = new OAuthBrowser(first.url, publicBaseUrl);
    const atThreads = await fetch(await person.start(started.body.data.authorizationUrl), { redirect: 'manual' });
    const [connectionId] = (await person.callback(atThreads.headers.get('location')!)).location!.searchParams.getAll('connectionId');

    const bytes = await image('jpeg', 1080, 1080);
    const upload = (await api('POST', '/media/uploads', { filename: 'vase.jpg', contentType: 'image/jpeg', size: bytes.length })).body.data;
    await fetch(upload.uploadUrl.replace(publicBaseUrl, first.url), { method: upload.method, headers: upload.headers, body: new Uint8Array(bytes) });
    await api('POST', `/media/uploads/${upload.id}/complete`);
    for (let i = 0; i < 300 && (await api('GET', `/media/${upload.id}`)).body.data.status === 'processing'; i++) await sleep(100);

    // threads_publish makes the thread at once and answers 5 s later: the kill lands in between.
    meta.holdPublishMs = 5_000;
    const post = (await api('POST', '/posts', { content: { caption: 'A new glaze', mediaIds: [upload.id] }, targets: [{ connectionId, placement: 'feed' }] }))
      .body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
    for (let i = 0; i < 600 && meta.threadsPosts.size === 0; i++) await sleep(50);
    expect(meta.threadsPosts.size).toBe(1);
    await servers.stop(first, 'SIGKILL');
    meta.holdPublishMs = 0;

    const second = await servers.start(env);
    meta.mediaOrigin = { from: publicBaseUrl, to: second.url };
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 90_000);
    const [thread] = [...meta.threadsPosts.values()];
    expect(meta.threadsPosts.size).toBe(1);
    expect(meta.threadsContainers.size).toBe(1);
    expect(meta.requests.filter((request) => request.path.endsWith('/threads_publish'))).toHaveLength(1);
    expect(meta.earlyPublishes).toBe(0);
    expect(published.targets[0]).toMatchObject({ status: 'published', remoteId: thread!.id, remoteUrl: thread!.permalink });
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
