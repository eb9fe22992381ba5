// A video larger than the process may hold goes to X in segments read by byte range: a 512 MiB (sparse) file through
// the X adapter to the X stand-in (which only counts and hashes bytes), with the test process's memory measured
// while it runs.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishMedia } from '../../src/providers/adapter.ts';
import { segmentBytes } from '../../src/providers/x/media.ts';
import { createXAdapter } from '../../src/providers/x/adapter.ts';
import type { OAuthAdapterDependencies } from '../../src/providers/network.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { XStandIn } from '../support/x.ts';

const redirectUri = 'https://sps.example.test/oauth/callback/x';
const size = 512 * 1024 * 1024;
let x: XStandIn;
let dir: string;
let path: string;

beforeAll(async () => {
  x = await XStandIn.start([redirectUri]);
  x.videoPolls = 0;
  dir = await mkdtemp(join(tmpdir(), 'sps-x-large-'));
  path = join(dir, 'large.mp4');
  const file = await open(path, 'w');
  await file.truncate(size);
  await file.close();
});
afterAll(async () => {
  await x.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a 512 MiB video to X', () => {
  it('is uploaded in segments of one byte range each, with the memory of the process bounded', async () => {
    const { access_token } = await x.authorize(redirectUri);
    const adapter = createXAdapter({
      app: { clientId: x.oauth.clientId, clientSecret: x.oauth.clientSecret, apiBaseUrl: x.url, authBaseUrl: `${x.url}/i` },
      redirectUri,
      config: { networkTimeoutMs: 30_000, xPostsPerDay: 100 },
    } as OAuthAdapterDependencies);
    const opened: { start: number; end: number }[] = [];
    const media: PublishMedia = {
      id: 'large',
      kind: 'video',
      mimeType: 'video/mp4',
      size,
      width: 1920,
      height: 1080,
      durationMs: 60_000,
      altText: null,
      url: '',
      jpegUrl: '',
      open: async (range) => {
        if (!range) throw new Error('the whole file was asked for');
        opened.push(range);
        return createReadStream(path, { start: range.start, end: range.end - 1 });
      },
    };
    // The process's resident memory, sampled as it runs (garbage V8 has yet to collect included): a file held whole
    // would add at least its 512 MiB; segments read one at a time add a few of them, and their garbage.
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    try {
      const outcome = await adapter.publish({
        account: { id: 'a', provider: 'x', username: x.oauth.user.username, remoteId: x.oauth.user.id, tokens: { accessToken: access_token } },
        placement: 'feed',
        caption: 'A long video',
        media: [media],
        thread: [],
        firstComment: null,
        settings: {},
        idempotencyKey: 'large',
        checkpoint: keptCheckpoint(),
        signal: new AbortController().signal,
      });
      expect(outcome.status).toBe('published');
    } finally {
      clearInterval(sampler);
    }
    const uploaded = [...x.media.values()][0]!;
    expect(uploaded.totalBytes).toBe(size);
    expect(uploaded.segments.size).toBe(size / segmentBytes);
    expect(opened).toHaveLength(size / segmentBytes);
    const zeros = createHash('sha256');
    for (let i = 0; i < size / segmentBytes; i++) zeros.update(Buffer.alloc(segmentBytes));
    expect(uploaded.hash.copy().digest('hex')).toBe(zeros.digest('hex'));
    const growthMiB = (peak - before) / 1024 ** 2;
    console.info(`resident memory grew by ${growthMiB.toFixed(0)} MiB for a ${size / 1024 ** 2} MiB upload`);
    expect(growthMiB).toBeLessThan(256);
  }, 180_000);
});
