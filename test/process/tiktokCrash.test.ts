// The worker killed while it uploads a video to TikTok (the stand-in, test/support/tiktok.ts): after a restart the
// same publish goes on (no second init: its publish_id was a checkpoint step), the chunk TikTok confirmed is not
// sent again, the one in flight is, and one video is posted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createTestDatabase } from '../support/database.ts';
import { runCli, scratchDataDir, ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { TikTokStandIn } from '../support/tiktok.ts';
import { mediaTools } from '../../src/media/probe.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/tiktok`;
const creator = { id: 'cR4shCr3at0r', name: 'Tove Crash', username: 'tovecrash' };

let env: Record<string, string>;
let apiKey: string;
let connectionId: string;
let tiktok: TikTokStandIn;
const servers = new ServerProcesses();

/** An MP4 of random noise, losslessly coded: over 10 MiB, so TikTok's 5 MiB chunks make two. */
async function noisyVideo(): Promise<Buffer> {
  const path = join(await mkdtemp(join(tmpdir(), 'sps-tiktok-')), 'noise.mp4');
  const noise = 'nullsrc=size=480x360:rate=15:duration=3,geq=random(1)*255:128:128';
  await promisify(execFile)(mediaTools.ffmpegPath, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    noise,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-qp',
    '0',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    path,
  ]);
  return readFile(path);
}

beforeAll(async () => {
  tiktok = await TikTokStandIn.start([callback]);
  tiktok.processingPolls = 0;
  tiktok.signInAs(creator);
  env = {
    DATABASE_URL: await createTestDatabase(),
    // The media files outlive the killed process.
    DATA_DIR: scratchDataDir(),
    ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: publicBaseUrl,
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    TIKTOK_CLIENT_ID: tiktok.oauth.clientId,
    TIKTOK_CLIENT_SECRET: tiktok.oauth.clientSecret,
    TIKTOK_API_BASE_URL: tiktok.url,
    TIKTOK_AUTH_BASE_URL: tiktok.url,
  };
  const setup = await setupWithCli(env, { name: 'TikTok crash', email: 'tiktok-crash@example.test' });
  apiKey = setup.apiKey;
  const connected = await runCli(
    [
      'accounts',
      'connect',
      '--workspace',
      setup.workspaceId,
      '--provider',
      'tiktok',
      '--username',
      creator.username,
      '--remote-id',
      creator.id,
      '--access-token',
      await tiktok.accessToken(callback),
      '--json',
    ],
    env,
  );
  expect(connected.code, connected.stderr).toBe(0);
  connectionId = JSON.parse(connected.stdout).connectionId;
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await tiktok?.stop();
});

async function uploadVideo(api: Api, serverUrl: string, bytes: Buffer): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename: 'noise.mp4', contentType: 'video/mp4', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, serverUrl), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 600 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

describe('uploading a video to TikTok across a crash', () => {
  it('goes on with the same publish after a kill mid-upload: one init, the confirmed chunk sent once, one video', async () => {
    const bytes = await noisyVideo();
    const chunk = 5 * 1024 * 1024;
    expect(bytes.length).toBeGreaterThanOrEqual(2 * chunk);
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const mediaId = await uploadVideo(api, first.url, bytes);
    // Each chunk answered 3 s after it arrived: the second is in flight when the worker dies.
    tiktok.chunkDelayMs = 3000;
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'One video, crash or not', mediaIds: [mediaId] },
        targets: [{ connectionId, placement: 'video', settings: { privacyLevel: 'PUBLIC_TO_EVERYONE' } }],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    const publish = () => [...tiktok.publishes.values()][0];
    for (let i = 0; i < 1200 && (publish()?.contentRanges.length ?? 0) < 2; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(publish()!.contentRanges.length).toBe(2);
    expect(publish()!.postId).toBeNull();

    tiktok.chunkDelayMs = 0;
    const second = await servers.start(env);
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(published.targets[0]).toMatchObject({ status: 'published' });
    expect(published.targets[0].attempts).toBeGreaterThanOrEqual(2);

    // One init, one publish; the first chunk once, the second again (its answer was lost), the video whole.
    expect(tiktok.inits).toHaveLength(1);
    expect(tiktok.publishes.size).toBe(1);
    const made = publish()!;
    const total = bytes.length;
    const count = Math.floor(total / chunk);
    const ranges = Array.from({ length: count }, (_, index) => `bytes ${index * chunk}-${index === count - 1 ? total - 1 : (index + 1) * chunk - 1}/${total}`);
    expect(made.contentRanges).toEqual([ranges[0], ranges[1], ...ranges.slice(1)]);
    expect(made.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(published.targets[0].remoteUrl).toBe(`https://www.tiktok.com/@${creator.username}/video/${made.postId}`);
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
