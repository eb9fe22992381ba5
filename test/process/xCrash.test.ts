// The worker killed while publishing to X (the X stand-in, test/support/x.ts): once in the middle of a video's
// upload, once after X created the post but before its answer arrived. After a restart each target is published
// with exactly one post at X, and no segment X had confirmed is uploaded again.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaTools } from '../../src/media/probe.ts';
import { segmentBytes } from '../../src/providers/x/media.ts';
import { createTestDatabase } from '../support/database.ts';
import { OAuthBrowser } from '../support/oauthBrowser.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { ServerProcesses, scratchDataDir, setupWithCli, type ServerProcess } from '../support/processes.ts';
import { XStandIn, type XRoute } from '../support/x.ts';

const publicBaseUrl = 'https://sps.example.test';
let env: Record<string, string>;
let apiKey: string;
let x: XStandIn;
const servers = new ServerProcesses();

/** A video of noise, encoded losslessly: large (over two upload segments) for a few seconds of 320x240. */
async function largeVideo(): Promise<Buffer> {
  const path = join(await mkdtemp(join(tmpdir(), 'sps-x-crash-')), 'noise.mp4');
  await promisify(execFile)(mediaTools.ffmpegPath, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'nullsrc=s=320x240:r=15:d=6,geq=random(1)*255:128:128'],
    ...['-c:v', 'libx264', '-qp', '0', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path],
  ]);
  return readFile(path);
}

async function upload(api: Api, url: string, bytes: Buffer): Promise<string> {
  const started = (await api('POST', '/media/uploads', { filename: 'noise.mp4', contentType: 'video/mp4', size: bytes.length })).body.data;
  await fetch(started.uploadUrl.replace(publicBaseUrl, url), { method: started.method, headers: started.headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${started.id}/complete`);
  for (let i = 0; i < 600; i++) {
    const { body } = await api('GET', `/media/${started.id}`);
    if (body.data.status !== 'processing') {
      expect(body.data.status).toBe('ready');
      return started.id;
    }
    await sleep(100);
  }
  throw new Error('the video is still processing');
}

/** Publishes a post to the account, and kills the server once X has done `route`'s work (its answer held back). */
async function publishKilledAt(
  server: ServerProcess,
  connectionId: string,
  caption: string,
  mediaIds: string[],
  killAt: (route: XRoute, detail: { segment?: number }) => boolean,
) {
  const api = apiFor(server.url, apiKey);
  let reached = false;
  x.hold = (route, detail) => (reached ||= killAt(route, detail));
  const post = (await api('POST', '/posts', { content: { caption, mediaIds }, targets: [{ connectionId, placement: 'feed' }] })).body.data;
  expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);
  for (let i = 0; i < 600 && !reached; i++) await sleep(50);
  expect(reached).toBe(true);
  await servers.stop(server, 'SIGKILL');
  x.hold = undefined;
  return post.id as string;
}

beforeAll(async () => {
  x = await XStandIn.start([`${publicBaseUrl}/oauth/callback/x`]);
  x.videoPolls = 1;
  env = {
    DATABASE_URL: await createTestDatabase(),
    DATA_DIR: scratchDataDir(),
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: publicBaseUrl,
    ...x.settings(),
  };
  ({ apiKey } = await setupWithCli(env, { name: 'X crash', email: 'x-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await x?.stop();
});

describe('publishing to X across a crash', () => {
  it('resumes an upload at the first unconfirmed segment, and finds a post X created instead of posting again', async () => {
    let server = await servers.start(env);
    let api = apiFor(server.url, apiKey);
    const browser = new OAuthBrowser(server.url, publicBaseUrl);
    const started = await api('POST', '/social-accounts/connect', { provider: 'x' });
    const atX = await fetch(await browser.start(started.body.data.authorizationUrl), { redirect: 'manual' });
    const connectionId = (await browser.callback(atX.headers.get('location')!)).location!.searchParams.get('connectionId')!;
    const clip = await largeVideo();
    expect(clip.length).toBeGreaterThan(2 * segmentBytes);
    const video = await upload(api, server.url, clip);

    // Killed while X takes the second segment: the first is confirmed in the checkpoint.
    const first = await publishKilledAt(server, connectionId, 'A noisy clip', [video], (route, { segment }) => route === 'append' && segment === 1);
    server = await servers.start(env);
    api = apiFor(server.url, apiKey);
    const published = await waitForPost(api, first, ['published', 'failed'], 120_000);
    expect(published.targets[0].status).toBe('published');
    const [post] = x.posts;
    expect(x.posts).toHaveLength(1);
    const appends = x.calls.filter((call) => call.route === 'append' && call.mediaId === post!.mediaIds[0]).map((call) => call.segment);
    expect(appends.filter((segment) => segment === 0)).toHaveLength(1);
    expect(appends.filter((segment) => segment === 1)).toHaveLength(2);
    expect(x.calls.filter((call) => call.route === 'initialize')).toHaveLength(1);
    expect(x.media.get(post!.mediaIds[0]!)).toMatchObject({ totalBytes: clip.length, finalized: true });

    // Killed after X created the post, before the service heard: the restarted worker finds it in the timeline.
    const second = await publishKilledAt(server, connectionId, 'Posted once, crash or not https://example.com/once', [], (route) => route === 'tweet');
    expect(x.posts).toHaveLength(2);
    server = await servers.start(env);
    api = apiFor(server.url, apiKey);
    const found = await waitForPost(api, second, ['published', 'failed'], 120_000);
    expect(x.posts).toHaveLength(2);
    expect(found.targets[0]).toMatchObject({ status: 'published', attempts: 2, remoteId: x.posts[1]!.id });
    expect(found.targets[0].remoteUrl).toBe(`https://x.com/${x.oauth.user.username}/status/${x.posts[1]!.id}`);
    expect(x.calls.filter((call) => call.route === 'timeline')).toHaveLength(1);
    await servers.stop(server, 'SIGTERM');
  }, 400_000);
});
