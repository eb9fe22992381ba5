// A stand-in for Google's resumable upload sessions, as the YouTube Data API documents them
// (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol): `PUT <session>` with
// `Content-Range: bytes A-B/TOTAL` appends a chunk (a multiple of 256 KiB unless it is the last) and answers 308 with
// `Range: bytes=0-N`, or 201 with the created resource after the last byte; `Content-Range: bytes */TOTAL` without a
// body answers where the session stands; a chunk that does not start at the next byte is refused (400). It keeps a
// hash and a count of the bytes, not the bytes.
import { createHash, type Hash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Session {
  received: number;
  hash: Hash;
  digest: string | null;
  chunks: number;
}

export interface ResumableSessions {
  url: string;
  /** A new session's URL. */
  open(): string;
  sessionOf(url: string): Session;
  /** Drops the connection of the next chunk after taking `bytes` of it (a break mid-upload). */
  breakNextChunkAfter(bytes: number): void;
  close(): Promise<void>;
}

const chunkUnit = 256 * 1024;

export async function startResumableSessions(): Promise<ResumableSessions> {
  const sessions = new Map<string, Session>();
  let breakAfter: number | null = null;
  const server: Server = createServer((request, response) => {
    const id = request.url!.split('/').pop()!;
    const session = sessions.get(id);
    if (!session || request.method !== 'PUT') return void response.writeHead(404).end();
    const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(request.headers['content-range'] ?? '');
    if (!range) return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"Content-Range required"}}');
    const total = Number(range[3]);
    const answerState = () => {
      if (session.digest)
        return void response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `video-${id}`, sha256: session.digest }));
      response.writeHead(308, session.received ? { range: `bytes=0-${session.received - 1}` } : {}).end();
    };
    if (range[1] === undefined) return void request.resume().on('end', answerState);
    const start = Number(range[1]);
    const end = Number(range[2]) + 1;
    const last = end === total;
    if (start !== session.received || (!last && (end - start) % chunkUnit !== 0)) {
      return void request.resume().on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad chunk"}}'));
    }
    let taken = 0;
    let broken = false;
    const cut = breakAfter;
    breakAfter = null;
    request.on('data', (chunk: Buffer) => {
      if (broken) return;
      const part = cut !== null ? chunk.subarray(0, Math.max(0, cut - taken)) : chunk;
      session.hash.update(part);
      taken += part.length;
      if (cut !== null && taken >= cut) {
        broken = true;
        session.received += taken;
        request.socket.destroy();
      }
    });
    request.on('end', () => {
      if (broken) return;
      session.received += taken;
      session.chunks++;
      if (session.received === total) session.digest = session.hash.digest('hex');
      answerState();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let next = 0;
  return {
    url,
    open: () => {
      const id = String(++next);
      sessions.set(id, { received: 0, hash: createHash('sha256'), digest: null, chunks: 0 });
      return `${url}/upload/${id}`;
    },
    sessionOf: (sessionUrl) => sessions.get(sessionUrl.split('/').pop()!)!,
    breakNextChunkAfter: (bytes) => {
      breakAfter = bytes;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
