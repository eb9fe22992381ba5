// The worker killed between Instagram Login's media_publish and the service learning of it: after a restart the post
// is at Instagram (graph.instagram.com) exactly once, its container published once and never before it was FINISHED.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { image } from '../support/mediaFiles.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { MetaStandIn } from '../support/meta.ts';
import { crashEnvironment, crashPublicBaseUrl, uploadMedia } from '../support/crashTests.ts';

let env: Record<string, string>;
let apiKey: string;
let meta: MetaStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  meta = await MetaStandIn.start({ redirectUris: [`${crashPublicBaseUrl}/oauth/callback/instagram`], processingReads: 1 });
  env = await crashEnvironment({
    INSTAGRAM_CLIENT_ID: meta.instagramClientId,
    INSTAGRAM_CLIENT_SECRET: meta.instagramClientSecret,
    INSTAGRAM_API_BASE_URL: meta.instagramUrl,
    INSTAGRAM_AUTH_BASE_URL: meta.instagramUrl,
    INSTAGRAM_TOKEN_BASE_URL: meta.instagramUrl,
  });
  ({ apiKey } = await setupWithCli(env, { name: 'Instagram Login crash', email: 'instagram-login-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await meta?.stop();
});

describe('publishing with Instagram Login across a crash', () => {
  it('publishes the container once when the worker is killed after Instagram published it and before its answer came', async () => {
    const first = await servers.start(env);
    meta.mediaOrigin = { from: crashPublicBaseUrl, to: first.url };
    const api = apiFor(first.url, apiKey);
    const connectionId = await connectByOAuth(first, crashPublicBaseUrl, api, 'instagram', { method: 'instagram_login' });
    const mediaId = await uploadMedia(api, first.url, { bytes: await image('jpeg', 1080, 1080), filename: 'loaf.jpg', contentType: 'image/jpeg' });

    // media_publish makes the post at once and answers 5 s later: the kill lands in between.
    meta.holdPublishMs = 5_000;
    const post = (await api('POST', '/posts', { content: { caption: 'Out of the oven', mediaIds: [mediaId] }, targets: [{ connectionId, placement: 'feed' }] }))
      .body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
    for (let i = 0; i < 600 && meta.igMedia.size === 0; i++) await sleep(50);
    expect(meta.igMedia.size).toBe(1);
    await servers.stop(first, 'SIGKILL');
    meta.holdPublishMs = 0;

    const second = await servers.start(env);
    meta.mediaOrigin = { from: crashPublicBaseUrl, to: second.url };
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 90_000);
    const [media] = [...meta.igMedia.values()];
    expect(meta.igMedia.size).toBe(1);
    expect(meta.containers.size).toBe(1);
    const publishes = meta.requests.filter((request) => request.path.endsWith('/media_publish'));
    expect(publishes).toHaveLength(1);
    expect(publishes[0]!.path).toBe(`/instagram/${meta.version}/${meta.instagramAccount.userId}/media_publish`);
    // The interrupted publish was looked up: the container PUBLISHED, then the account's newest media with the caption.
    expect(meta.requests.some((request) => request.path === `/instagram/${meta.version}/${meta.instagramAccount.userId}/media`)).toBe(true);
    expect(meta.earlyPublishes).toBe(0);
    expect(published.targets[0]).toMatchObject({ status: 'published', remoteId: media!.id, remoteUrl: media!.permalink });
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
