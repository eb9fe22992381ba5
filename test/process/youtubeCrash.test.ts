// The worker killed while it uploads a video to YouTube (the stand-in, test/support/youtube.ts): after a restart the
// upload goes on in the same resumable session from the byte Google reports it holds, no byte is sent twice, and
// one video is made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { runCli, scratchDataDir, ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { video } from '../support/mediaFiles.ts';
import { YouTubeStandIn } from '../support/youtube.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/youtube`;
const owner = { id: '204918273645', name: 'Ida Crane', username: 'ida@example.test' };
const channel = { id: 'UCcR4shT3stCh4nn3lXyZ012', title: 'Ida Crane', customUrl: '@idacrane' };

let env: Record<string, string>;
let apiKey: string;
let connectionId: string;
let youtube: YouTubeStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  youtube = await YouTubeStandIn.start({ redirectUris: [callback], processingPolls: 1 });
  youtube.signInAs(owner, channel);
  env = {
    DATABASE_URL: await createTestDatabase(),
    // The media files outlive the killed process.
    DATA_DIR: scratchDataDir(),
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: publicBaseUrl,
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    YOUTUBE_CLIENT_ID: youtube.oauth.clientId,
    YOUTUBE_CLIENT_SECRET: youtube.oauth.clientSecret,
    YOUTUBE_API_BASE_URL: youtube.url,
    YOUTUBE_AUTH_BASE_URL: youtube.oauth.url,
    YOUTUBE_TOKEN_BASE_URL: youtube.oauth.url,
  };
  const setup = await setupWithCli(env, { name: 'YouTube crash', email: 'youtube-crash@example.test' });
  apiKey = setup.apiKey;
  const connected = await runCli(
    [
      'accounts',
      'connect',
      '--workspace',
      setup.workspaceId,
      '--provider',
      'youtube',
      '--username',
      channel.customUrl,
      '--remote-id',
      channel.id,
      '--access-token',
      await youtube.accessToken(callback),
      '--json',
    ],
    env,
  );
  expect(connected.code, connected.stderr).toBe(0);
  connectionId = JSON.parse(connected.stdout).connectionId;
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await youtube?.stop();
});

async function uploadVideo(api: Api, serverUrl: string, bytes: Buffer): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename: 'clip.mp4', contentType: 'video/mp4', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, serverUrl), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

describe('uploading a video to YouTube across a crash', () => {
  it('resumes the same upload session from the byte Google holds and makes one video when the worker is killed mid-upload', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const bytes = await video(320, 240, 3);
    const mediaId = await uploadVideo(api, first.url, bytes);
    // Google holds the first part of the file when the worker dies.
    const heldAtKill = Math.floor(bytes.length / 2);
    youtube.stallAtByte = heldAtKill;
    const post = (
      await api('POST', '/posts', { content: { caption: 'One video, crash or not', mediaIds: [mediaId] }, targets: [{ connectionId, placement: 'video' }] })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    const session = () => [...youtube.sessions.values()][0];
    for (let i = 0; i < 600 && session()?.received !== heldAtKill; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(session()?.received).toBe(heldAtKill);
    expect(youtube.videos.size).toBe(0);

    const second = await servers.start(env);
    const restarted = apiFor(second.url, apiKey);
    const published = await waitForPost(restarted, post.id, ['published', 'failed'], 90_000);
    expect(published.targets[0]).toMatchObject({ status: 'published' });
    expect(published.targets[0].attempts).toBeGreaterThanOrEqual(2);

    // One session, every byte received once, one video with the file's bytes.
    expect(youtube.sessions.size).toBe(1);
    expect(session()!.bytesReceived).toBe(bytes.length);
    expect(youtube.videos.size).toBe(1);
    const [made] = youtube.videos.values();
    expect(made!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(published.targets[0].remoteUrl).toBe(`https://www.youtube.com/watch?v=${made!.id}`);
    // Each attempt asked the session where it stood; the second sent the rest from the byte Google held.
    const total = bytes.length;
    expect(session()!.contentRanges).toEqual([
      `bytes */${total}`,
      `bytes 0-${total - 1}/${total}`,
      `bytes */${total}`,
      `bytes ${heldAtKill}-${total - 1}/${total}`,
    ]);
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
