// S3's form upload (a multipart/form-data POST, RFC 7578, the policy's fields first and `file` last) as the stand-ins
// of networks that hand one out read it (Pinterest's video uploads, Reddit's media): the file's bytes counted and
// hashed as they stream, never kept.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A file received: its type, length and SHA-256. */
export interface Fetched {
  contentType: string;
  bytes: number;
  sha256: string;
}

/**
 * A multipart/form-data body (RFC 7578) read as it streams: the text fields before the `file` part kept, the file's
 * bytes counted and hashed (never kept), anything after the file ignored as S3 does.
 */
export async function streamedForm(req: IncomingMessage, boundary: string): Promise<{ fields: Record<string, string>; file?: Fetched }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let head = Buffer.alloc(0);
  let file: { contentType: string; hash: ReturnType<typeof createHash>; bytes: number; held: Buffer; done: boolean } | undefined;
  const fields: Record<string, string> = {};
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (!file) {
      head = Buffer.concat([head, chunk]);
      const text = head.toString('latin1');
      const start = text.search(/Content-Disposition: form-data; name="file"[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/i);
      if (start < 0) continue;
      const headerEnd = text.indexOf('\r\n\r\n', start) + 4;
      for (const part of text.slice(0, start).split(`--${boundary}\r\n`).slice(1)) {
        const [, name, value] = /name="([^"]+)"\r\n\r\n([\s\S]*)\r\n$/.exec(part) ?? [];
        if (name) fields[name] = Buffer.from(value!, 'latin1').toString('utf8');
      }
      const contentType = /Content-Type: ([^\r]+)/i.exec(text.slice(start, headerEnd))?.[1] ?? '';
      file = { contentType, hash: createHash('sha256'), bytes: 0, held: Buffer.alloc(0), done: false };
      take(file, head.subarray(headerEnd));
      head = Buffer.alloc(0);
    } else take(file, chunk);
  }
  if (!file) return { fields };
  take(file, Buffer.alloc(0), true);
  return { fields, file: { contentType: file.contentType, bytes: file.bytes, sha256: file.hash.digest('hex') } };

  /** Hashes the file's bytes, holding back what could be the start of the closing delimiter. */
  function take(state: NonNullable<typeof file>, chunk: Buffer, end = false): void {
    if (state.done) return;
    const bytes = Buffer.concat([state.held, chunk]);
    const at = bytes.indexOf(delimiter);
    const keep = at >= 0 ? at : end ? bytes.length : Math.max(0, bytes.length - delimiter.length);
    state.hash.update(bytes.subarray(0, keep));
    state.bytes += keep;
    state.held = at >= 0 ? Buffer.alloc(0) : bytes.subarray(keep);
    state.done = at >= 0;
  }
}
