// The worker killed while it uploads a video to LinkedIn (the stand-in, test/support/linkedin.ts): after a restart
// the upload resumes at the part LinkedIn had not confirmed, no confirmed part is sent again, and the post is made
// once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../support/database.ts';
import { runCli, scratchDataDir, ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost, type Api } from '../support/posts.ts';
import { video } from '../support/mediaFiles.ts';
import { LinkedInStandIn } from '../support/linkedin.ts';

const publicBaseUrl = 'https://publisher.example';
const callback = `${publicBaseUrl}/oauth/callback/linkedin`;
const member = { id: 'cR4shT3st', name: 'Dora Lang', username: 'dora@example.test' };

let env: Record<string, string>;
let apiKey: string;
let connectionId: string;
let linkedin: LinkedInStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  // Parts of 8 KiB, each answered 1.5 s after it arrived: a kill in that time lands with some parts confirmed.
  linkedin = await LinkedInStandIn.start({ redirectUris: [callback], partBytes: 8 * 1024, processingPolls: 1, partDelayMs: 1500 });
  linkedin.signInAs(member);
  env = {
    DATABASE_URL: await createTestDatabase(),
    // The media files outlive the killed process.
    DATA_DIR: scratchDataDir(),
    ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    JOB_SUPERVISE_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_BASE_URL: publicBaseUrl,
    NETWORK_ALLOWED_HOSTS: '127.0.0.1',
    LINKEDIN_CLIENT_ID: linkedin.oauth.clientId,
    LINKEDIN_CLIENT_SECRET: linkedin.oauth.clientSecret,
    LINKEDIN_API_BASE_URL: linkedin.url,
    LINKEDIN_AUTH_BASE_URL: linkedin.authBaseUrl,
  };
  const setup = await setupWithCli(env, { name: 'LinkedIn crash', email: 'linkedin-crash@example.test' });
  apiKey = setup.apiKey;
  const connected = await runCli(
    [
      'accounts',
      'connect',
      '--workspace',
      setup.workspaceId,
      '--provider',
      'linkedin',
      '--username',
      member.username,
      '--remote-id',
      `urn:li:person:${member.id}`,
      '--access-token',
      await linkedin.accessToken(callback),
      '--json',
    ],
    env,
  );
  expect(connected.code, connected.stderr).toBe(0);
  connectionId = JSON.parse(connected.stdout).connectionId;
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await linkedin?.stop();
});

async function uploadVideo(api: Api, serverUrl: string, bytes: Buffer): Promise<string> {
  const started = await api('POST', '/media/uploads', { filename: 'clip.mp4', contentType: 'video/mp4', size: bytes.length });
  const { id, uploadUrl, method, headers } = started.body.data;
  await fetch(uploadUrl.replace(publicBaseUrl, serverUrl), { method, headers, body: new Uint8Array(bytes) });
  await api('POST', `/media/uploads/${id}/complete`);
  for (let i = 0; i < 300 && (await api('GET', `/media/${id}`)).body.data.status === 'processing'; i++) await sleep(100);
  return id;
}

describe('uploading a video to LinkedIn across a crash', () => {
  it('sends no confirmed part twice and posts once when the worker is killed mid-upload', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const mediaId = await uploadVideo(api, first.url, await video(320, 240, 3));
    const post = (
      await api('POST', '/posts', { content: { caption: 'One video, crash or not', mediaIds: [mediaId] }, targets: [{ connectionId, placement: 'feed' }] })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    // Killed while a part is on its way, after two were confirmed.
    const parts = () => [...linkedin.videos.values()][0]?.parts ?? [];
    for (let i = 0; i < 600 && !(parts().filter((part) => part.answered > 0).length >= 2 && parts().some((part) => part.received > part.answered)); i++) {
      await sleep(25);
    }
    await servers.stop(first, 'SIGKILL');
    const confirmedBeforeKill = parts().map((part) => part.answered > 0);
    expect(confirmedBeforeKill.filter(Boolean).length).toBeGreaterThanOrEqual(2);
    expect(confirmedBeforeKill.every(Boolean)).toBe(false);
    expect(linkedin.posts.size).toBe(0);

    linkedin.partDelayMs = 0;
    const second = await servers.start(env);
    const restarted = apiFor(second.url, apiKey);
    const published = await waitForPost(restarted, post.id, ['published', 'failed'], 90_000);
    expect(published.targets[0]).toMatchObject({ status: 'published' });
    expect(published.targets[0].attempts).toBeGreaterThanOrEqual(2);

    // One upload, one post; each part confirmed before the kill was sent once, the others until confirmed.
    expect(linkedin.videos.size).toBe(1);
    expect(linkedin.posts.size).toBe(1);
    const [made] = linkedin.posts.values();
    expect(published.targets[0].remoteUrl).toBe(`https://www.linkedin.com/feed/update/${made!.id}/`);
    expect(made!.content?.media?.id).toBe([...linkedin.videos.keys()][0]);
    parts().forEach((part, index) => {
      if (confirmedBeforeKill[index]) expect(part.received, `part ${index}`).toBe(1);
      expect(part.answered, `part ${index}`).toBe(1);
    });
    await servers.stop(second, 'SIGTERM');
  }, 240_000);
});
