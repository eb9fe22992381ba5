// The worker killed while Reddit makes a post (the stand-in, test/support/reddit.ts, stores the submission and holds
// its answer): Reddit takes no idempotency key, so after a restart the interrupted submit is looked up among the
// subreddit's newest posts (same author, title and link) instead of submitting again, and there is one post, once.
// An image post the same way: Reddit makes it only after processing the upload, so the restarted worker, not finding
// it yet, waits for it (the target's status check) rather than submitting again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { RedditStandIn } from '../support/reddit.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { crashEnvironment, crashPublicBaseUrl, uploadMedia } from '../support/crashTests.ts';
import { image } from '../support/mediaFiles.ts';

let env: Record<string, string>;
let apiKey: string;
let reddit: RedditStandIn;
let connectionId: string;
const servers = new ServerProcesses();

beforeAll(async () => {
  reddit = await new RedditStandIn([`${crashPublicBaseUrl}/oauth/callback/reddit`], { id: '2c8q', name: 'crashbaker', username: 'crashbaker' }).start();
  reddit.subreddits.push({ name: 'Baking', allows: 'any' });
  env = await crashEnvironment(reddit.env);
  ({ apiKey } = await setupWithCli(env, { name: 'Reddit crash', email: 'reddit-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await reddit?.stop();
});

describe('submitting to Reddit across a crash', () => {
  it('finds the post the killed worker was submitting after a restart: one submit, one post, the target published with it', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    connectionId = await connectByOAuth(first, crashPublicBaseUrl, api, 'reddit');
    // Reddit stores the post and never answers: the worker dies waiting.
    reddit.holdSubmit = () => true;
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'Ours, once, crash or not.' },
        targets: [
          { connectionId, placement: 'link', settings: { subreddit: 'r/Baking', title: 'Sourdough, explained', url: 'https://bakery.example/sourdough' } },
        ],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && reddit.posts.length === 0; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(reddit.posts).toHaveLength(1);
    reddit.holdSubmit = undefined;

    const second = await servers.start(env);
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(published.targets[0]).toMatchObject({ status: 'published', remoteId: reddit.posts[0]!.id });
    expect(reddit.apiRequests.filter((request) => request.method === 'GET' && request.path.startsWith('/r/Baking/new'))).not.toEqual([]);
    expect(reddit.apiRequests.filter((request) => request.method === 'POST' && request.path === '/api/submit')).toHaveLength(1);
    expect(reddit.posts).toHaveLength(1);
    await servers.stop(second, 'SIGTERM');
  }, 300_000);

  it('waits after a restart for the image post the killed worker had submitted, until Reddit lists it: one submit, one post', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const mediaId = await uploadMedia(api, first.url, { bytes: await image('jpeg', 320, 240), filename: 'loaf.jpg', contentType: 'image/jpeg' });
    const before = reddit.posts.length;
    reddit.holdSubmit = () => true;
    reddit.mediaListedAfterReads = 2;
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'A loaf, once.', mediaIds: [mediaId] },
        targets: [{ connectionId, placement: 'image', settings: { subreddit: 'Baking', title: 'Crumb shot' } }],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && reddit.posts.length === before; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(reddit.posts).toHaveLength(before + 1);
    reddit.holdSubmit = undefined;
    const submits = () => reddit.apiRequests.filter((request) => request.method === 'POST' && request.path === '/api/submit').length;
    const submitted = submits();

    const second = await servers.start(env);
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(published.targets[0]).toMatchObject({ status: 'published', remoteId: reddit.posts.at(-1)!.id });
    expect(reddit.posts.at(-1)).toMatchObject({ kind: 'image', title: 'Crumb shot', unlistedReads: 0 });
    expect(submits()).toBe(submitted);
    expect(reddit.posts).toHaveLength(before + 1);
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
