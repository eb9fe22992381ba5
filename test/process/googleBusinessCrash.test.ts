// The worker killed while Google Business Profile creates a location's post (the stand-in, test/support/googleBusiness.ts,
// makes the post and holds its answer): after a restart the interrupted create is looked up among the location's
// posts instead of posting again, and there is one post, once, with the photo Google fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { image } from '../support/mediaFiles.ts';
import { GoogleBusinessStandIn } from '../support/googleBusiness.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { crashEnvironment, crashPublicBaseUrl, uploadMedia } from '../support/crashTests.ts';

const owner = { id: '108765432109876543210', name: 'Cai Crash', username: 'cai@example.test' };
const location = 'accounts/3344556677/locations/5566778899';

let env: Record<string, string>;
let apiKey: string;
let google: GoogleBusinessStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  google = await new GoogleBusinessStandIn([`${crashPublicBaseUrl}/oauth/callback/google_business`], owner).start();
  google.accounts.set(owner.id, [{ id: 'accounts/3344556677', accountName: 'Cai Crash', locations: [{ id: '5566778899', title: 'Crash Café' }] }]);
  env = await crashEnvironment(google.env);
  ({ apiKey } = await setupWithCli(env, { name: 'Google Business crash', email: 'google-business-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await google?.stop();
});

describe('posting to a Google Business Profile location across a crash', () => {
  it('finds the post the killed worker was creating after a restart: one post, once', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const connectionId = await connectByOAuth(first, crashPublicBaseUrl, api, 'google_business');
    const photo = await image('jpeg', 400, 300);
    const mediaId = await uploadMedia(api, first.url, { bytes: photo, filename: 'cafe.jpg', contentType: 'image/jpeg' });
    google.mediaOrigin = { from: crashPublicBaseUrl, to: first.url };
    // Google makes the post and never answers: the worker dies waiting.
    google.holdCreate = () => true;
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'One post, crash or not', mediaIds: [mediaId] },
        targets: [{ connectionId, placement: 'update', settings: { button: 'LEARN_MORE', buttonUrl: 'https://cafe.example/' } }],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && google.posts.length === 0; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(google.posts).toHaveLength(1);
    google.holdCreate = undefined;

    const second = await servers.start(env);
    google.mediaOrigin = { from: crashPublicBaseUrl, to: second.url };
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(published.targets[0]).toMatchObject({ status: 'published' });
    expect(published.targets[0].attempts).toBeGreaterThanOrEqual(2);

    // The interrupted create was looked up among the location's posts; the post made before the kill is the target's.
    expect(google.apiRequests).toContainEqual({ method: 'GET', path: `/v4/${location}/localPosts?pageSize=100` });
    expect(google.apiRequests.filter((request) => request.method === 'POST' && request.path === `/v4/${location}/localPosts`)).toHaveLength(1);
    expect(google.posts).toHaveLength(1);
    const [made] = google.posts;
    expect(published.targets[0]).toMatchObject({ remoteId: made!.name, remoteUrl: made!.searchUrl });
    expect(made!.photo!.sha256).toBe(createHash('sha256').update(photo).digest('hex'));
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
