// The networks kit's rules (src/providers/kit/): a publish in steps resumes where an attempt stopped, an
// interrupted step is looked up before it is sent again, and uploads go segment by segment from byte ranges.
import { describe, expect, it } from 'vitest';
import { Steps } from '../../src/providers/kit/steps.ts';
import { multipartFileBody, segmentRanges, uploadSegments } from '../../src/providers/kit/upload.ts';
import { keptCheckpoint } from '../support/checkpoints.ts';
import { publishMedia } from '../support/publishMedia.ts';
import { createHash, randomBytes } from 'node:crypto';
import { NetworkHttp, networkFetch } from '../../src/providers/http.ts';
import { GrantRefused, refreshTokens } from '../../src/providers/oauth2.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uploadResumable } from '../../src/providers/kit/resumable.ts';
import { throttleBackoffMs } from '../../src/providers/kit/backoff.ts';
import { startResumableSessions } from '../support/resumableSessions.ts';

const mediaOf = (bytes: Buffer) => publishMedia(bytes, { id: 'm1', kind: 'video', mimeType: 'video/mp4' });

describe('steps', () => {
  it('runs a finished step once across attempts, and saves before and after each call', async () => {
    const checkpoint = keptCheckpoint();
    let calls = 0;
    const first = new Steps(checkpoint);
    expect(await first.once('init', async () => ({ id: `upload-${++calls}` }))).toEqual({ id: 'upload-1' });
    expect(checkpoint.saves).toMatchObject([
      { done: {}, started: 'init' },
      { done: { init: { id: 'upload-1' } }, at: { init: expect.any(Number) } },
    ]);
    expect(checkpoint.saves[1]!.started).toBeUndefined();

    const retried = new Steps(keptCheckpoint(checkpoint.saved));
    expect(await retried.once('init', async () => ({ id: `upload-${++calls}` }))).toEqual({ id: 'upload-1' });
    expect(calls).toBe(1);
    expect(retried.result('init')).toEqual({ id: 'upload-1' });
  });

  it('looks an interrupted step up at the network before sending it again', async () => {
    // The attempt stopped after marking "post" started: the network may or may not have the post.
    const interrupted = { done: { media: ['m-1'] }, started: 'post' };
    let posted = 0;
    const found = new Steps(keptCheckpoint(interrupted));
    expect(await found.once('post', async () => ++posted, { ifInterrupted: async () => 41 })).toBe(41);
    expect(posted).toBe(0);

    const notFound = new Steps(keptCheckpoint(interrupted));
    expect(await notFound.once('post', async () => ++posted, { ifInterrupted: async () => null })).toBe(1);
    expect(posted).toBe(1);
  });

  it('sends an interrupted step again where nothing can be looked up (idempotent calls)', async () => {
    let sent = 0;
    const steps = new Steps(keptCheckpoint({ done: {}, started: 'append:0' }));
    await steps.once('append:0', async () => ++sent);
    expect(sent).toBe(1);
  });

  it('forgets steps whose results expired at the network, so they run again', async () => {
    const checkpoint = keptCheckpoint();
    const steps = new Steps(checkpoint);
    await steps.once('media:0:initialize', async () => 'id-1');
    await steps.once('media:0:append:0', async () => null);
    await steps.once('media:1:initialize', async () => 'id-2');
    expect(steps.recordedAt('media:0:initialize')).toBeGreaterThan(Date.now() - 1000);
    await steps.forget('media:0');
    const later = new Steps(keptCheckpoint(checkpoint.saved));
    expect(await later.once('media:0:initialize', async () => 'id-3')).toBe('id-3');
    expect(later.result('media:0:append:0')).toBeUndefined();
    expect(later.result('media:1:initialize')).toBe('id-2');
  });

  it('counts a step without a result as done', async () => {
    const checkpoint = keptCheckpoint();
    await new Steps(checkpoint).once('finalize', async () => undefined);
    let again = false;
    await new Steps(keptCheckpoint(checkpoint.saved)).once('finalize', async () => {
      again = true;
    });
    expect(again).toBe(false);
  });
});

describe('uploads in segments', () => {
  it('cuts a file in segments, the last one shorter', () => {
    expect(segmentRanges(12, 5)).toEqual([
      { index: 0, start: 0, end: 5 },
      { index: 1, start: 5, end: 10 },
      { index: 2, start: 10, end: 12 },
    ]);
    expect(segmentRanges(0, 5)).toEqual([{ index: 0, start: 0, end: 0 }]);
  });

  it('reads each segment by its byte range, and resumes at the first segment the network did not confirm', async () => {
    const bytes = Buffer.from('abcdefghijkl');
    const checkpoint = keptCheckpoint();
    const media = mediaOf(bytes);
    const received: string[] = [];
    let failAt = 2;
    const send = async ({ index, bytes }: { index: number; bytes: Buffer }) => {
      if (index === failAt) throw new Error('connection dropped');
      received.push(bytes.toString());
      return `etag-${index}`;
    };
    await expect(uploadSegments(new Steps(checkpoint), 'part', media, 5, send)).rejects.toThrow('connection dropped');
    expect(received).toEqual(['abcde', 'fghij']);

    failAt = -1;
    const resumed = mediaOf(bytes);
    const etags = await uploadSegments(new Steps(keptCheckpoint(checkpoint.saved)), 'part', resumed, 5, send);
    expect(etags).toEqual(['etag-0', 'etag-1', 'etag-2']);
    expect(received).toEqual(['abcde', 'fghij', 'kl']);
    // Only the missing segment was read again.
    expect(resumed.reads).toEqual([{ start: 10, end: 12 }]);
  });
});

describe('a streamed multipart body', () => {
  it('is the form the standard encoder would send, with its length known beforehand', async () => {
    const media = mediaOf(Buffer.from('file bytes'));
    const body = multipartFileBody({ description: 'A red "square"' }, { field: 'file', filename: 'm1', media });
    if (!('stream' in body)) throw new Error('a streamed body');
    const sent = Buffer.concat(await (await body.stream()).toArray());
    expect(sent.length).toBe(body.length);
    const form = await new Response(sent, { headers: { 'content-type': body.contentType } }).formData();
    expect(form.get('description')).toBe('A red "square"');
    const file = form.get('file') as File;
    expect(file.type).toBe('video/mp4');
    expect(await file.text()).toBe('file bytes');
  });
});

describe('a resumable upload (YouTube’s protocol)', () => {
  const chunk = 256 * 1024;
  const http = new NetworkHttp({ network: 'Test', reasonOf: () => undefined, retries: 0 });

  it('sends the file in chunks and answers the created resource', async () => {
    const sessions = await startResumableSessions();
    try {
      const bytes = randomBytes(chunk * 2 + 1000);
      const sessionUrl = sessions.open();
      const created = await uploadResumable<{ sha256: string }>({ http, sessionUrl, media: mediaOf(bytes), chunkBytes: chunk });
      expect(created.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(sessions.sessionOf(sessionUrl).chunks).toBe(3);
    } finally {
      await sessions.close();
    }
  });

  it('after a break, asks the session where it stands and sends only what it lacks', async () => {
    const sessions = await startResumableSessions();
    try {
      const bytes = randomBytes(chunk * 3);
      const sessionUrl = sessions.open();
      const media = mediaOf(bytes);
      sessions.breakNextChunkAfter(100_000);
      const created = await uploadResumable<{ sha256: string }>({ http, sessionUrl, media, chunkBytes: chunk });
      expect(created.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      // The second read starts where the session's bytes ended, not at the broken chunk's start.
      expect(media.reads.map((read) => read.start)).toEqual([0, 100_000, 100_000 + chunk, 100_000 + 2 * chunk]);
    } finally {
      await sessions.close();
    }
  });

  it('resumes a session an earlier attempt left half-sent', async () => {
    const sessions = await startResumableSessions();
    try {
      const bytes = randomBytes(chunk * 2);
      const sessionUrl = sessions.open();
      // The earlier attempt sent the first chunk, then its worker was killed.
      const killed = mediaOf(bytes);
      const open = killed.open;
      killed.open = async (range) => {
        if (killed.reads.length) throw new Error('worker killed');
        return open(range);
      };
      await expect(uploadResumable({ http, sessionUrl, media: killed, chunkBytes: chunk })).rejects.toThrow('worker killed');
      const media = mediaOf(bytes);
      const created = await uploadResumable<{ sha256: string }>({ http, sessionUrl, media, chunkBytes: chunk });
      expect(created.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(media.reads).toEqual([{ start: chunk, end: 2 * chunk }]);
    } finally {
      await sessions.close();
    }
  });
});

describe('the back-off where a network throttles without saying for how long', () => {
  it('starts at 30 s and doubles with each attempt up to 15 minutes, with up to half again at random', () => {
    const lowest = () => 0;
    const highest = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => throttleBackoffMs(attempt, lowest))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
    expect(throttleBackoffMs(1, highest)).toBe(44_999);
    expect(throttleBackoffMs(9, highest)).toBe(900_000);
  });
});

describe('a token endpoint that refuses in its own shape rather than RFC 6749’s', () => {
  it('refuses the grant on a 4xx (the account needs reconnecting), and is the network’s trouble on a 5xx', async () => {
    let status = 401;
    const server = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 2, message: 'Authentication failed.' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = {
      client: { clientId: 'id', clientSecret: 'secret', redirectUri: 'https://sps.example/cb' },
      server: { authorizationEndpoint: `${url}/oauth`, tokenEndpoint: `${url}/token`, scopes: [], pkce: false, fetch: networkFetch() },
    };
    try {
      const refused = await refreshTokens(app, 'Pinterest', { accessToken: 'a', refreshToken: 'r' }, 5000).catch((error) => error);
      expect(refused).toBeInstanceOf(GrantRefused);
      expect(refused).toMatchObject({ code: 'ACCOUNT_NEEDS_RECONNECT', transient: false });
      status = 503;
      const unavailable = await refreshTokens(app, 'Pinterest', { accessToken: 'a', refreshToken: 'r' }, 5000).catch((error) => error);
      expect(unavailable).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', transient: true });
    } finally {
      server.close();
    }
  });
});
