// The worker killed while Pinterest creates a video pin (the stand-in, test/support/pinterest.ts, holds the pin's
// answer): after a restart the interrupted pin step is looked up among the board's latest pins instead of pinning
// again, the video is neither registered nor uploaded twice, and there is one pin, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerProcesses, setupWithCli } from '../support/processes.ts';
import { apiFor, waitForPost } from '../support/posts.ts';
import { video } from '../support/mediaFiles.ts';
import { PinterestStandIn } from '../support/pinterest.ts';
import { connectByOAuth } from '../support/oauthConnect.ts';
import { crashEnvironment, crashPublicBaseUrl, uploadMedia } from '../support/crashTests.ts';

const pinner = { id: '549755813999', name: 'Pia Crash', username: 'piacrash' };
const board = { id: '549755814000', name: 'Crash course' };

let env: Record<string, string>;
let apiKey: string;
let pinterest: PinterestStandIn;
const servers = new ServerProcesses();

beforeAll(async () => {
  pinterest = await PinterestStandIn.start([`${crashPublicBaseUrl}/oauth/callback/pinterest`]);
  pinterest.signInAs(pinner, [board]);
  env = await crashEnvironment(pinterest.env);
  ({ apiKey } = await setupWithCli(env, { name: 'Pinterest crash', email: 'pinterest-crash@example.test' }));
}, 180_000);
afterAll(async () => {
  await servers.killAll();
  await pinterest?.stop();
});

describe('pinning a video to Pinterest across a crash', () => {
  it('finds the pin the killed worker was creating after a restart: one video uploaded once, one pin', async () => {
    const first = await servers.start(env);
    const api = apiFor(first.url, apiKey);
    const connectionId = await connectByOAuth(first, crashPublicBaseUrl, api, 'pinterest');
    const bytes = await video(320, 240, 5);
    const mediaId = await uploadMedia(api, first.url, { bytes, filename: 'clip.mp4', contentType: 'video/mp4' });
    // Pinterest makes the pin and never answers: the worker dies waiting.
    pinterest.holdPin = () => true;
    const post = (
      await api('POST', '/posts', {
        content: { caption: 'One pin, crash or not', mediaIds: [mediaId] },
        targets: [{ connectionId, placement: 'pin', settings: { boardId: board.id, title: 'Crash course' } }],
      })
    ).body.data;
    expect((await api('POST', `/posts/${post.id}/publish`)).status).toBe(202);

    for (let i = 0; i < 1200 && pinterest.pins.size === 0; i++) await sleep(25);
    await servers.stop(first, 'SIGKILL');
    expect(pinterest.pins.size).toBe(1);
    pinterest.holdPin = undefined;

    const second = await servers.start(env);
    const published = await waitForPost(apiFor(second.url, apiKey), post.id, ['published', 'failed'], 120_000);
    expect(published.targets[0]).toMatchObject({ status: 'published' });

    // The interrupted pin step was looked up on the board; the pin made before the kill is the target's, and nothing
    // was pinned, registered or uploaded again.
    expect(pinterest.requests).toContainEqual({ method: 'GET', path: `/v5/boards/${board.id}/pins?page_size=25` });
    expect(pinterest.pins.size).toBe(1);
    const [pin] = pinterest.pins.values();
    expect(published.targets[0]).toMatchObject({ remoteId: pin!.id, remoteUrl: `https://www.pinterest.com/pin/${pin!.id}/` });
    expect(pinterest.requests.filter((request) => request.method === 'POST' && request.path === '/v5/pins')).toHaveLength(1);
    expect(pinterest.media.size).toBe(1);
    const [media] = pinterest.media.values();
    expect(media!.uploads).toBe(1);
    expect(media!.upload!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(pin!.video).toMatchObject({ mediaId: media!.id, cover: { keyFrameTime: 1 } });
    await servers.stop(second, 'SIGTERM');
  }, 300_000);
});
