// Media as a network takes it, without ever holding a whole file: segments read by byte range (X's APPEND,
// LinkedIn's parts with their ETags, YouTube's resumable chunks), and whole-file bodies streamed from storage (a
// single PUT, a multipart form). Memory per upload is one segment, whatever the file's size.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { PublishMedia } from '../adapter.ts';
import type { NetworkRequestBody } from '../http.ts';
import type { Steps } from './steps.ts';

/** The byte ranges of a file cut in segments of `segmentBytes`, the last one shorter. */
export function segmentRanges(size: number, segmentBytes: number): { index: number; start: number; end: number }[] {
  const count = Math.max(1, Math.ceil(size / segmentBytes));
  return Array.from({ length: count }, (_, index) => ({ index, start: index * segmentBytes, end: Math.min(size, (index + 1) * segmentBytes) }));
}

/** One segment's bytes, in memory so that a retry of its call can send them again. */
export async function readSegment(media: PublishMedia, range: { start: number; end: number }): Promise<Buffer> {
  return buffer(await media.open(range));
}

/**
 * Sends a file in segments, each once across attempts (a step `<prefix>:<index>`, saved after the network took it),
 * one at a time: a resumed upload starts at the first segment the network did not confirm. `send` gets each
 * segment's bytes and answers what the network gave back for it (an ETag, or nothing).
 */
export async function uploadSegments<T>(
  steps: Steps,
  prefix: string,
  media: PublishMedia,
  segmentBytes: number,
  send: (segment: { index: number; start: number; end: number; bytes: Buffer }) => Promise<T>,
  ranges = segmentRanges(media.size, segmentBytes),
): Promise<T[]> {
  const results: T[] = [];
  for (const range of ranges) {
    results.push(await steps.once(`${prefix}:${range.index}`, async () => send({ ...range, bytes: await readSegment(media, range) })));
  }
  return results;
}

/** The whole file as a request body streamed from storage (sent once: a stream cannot be sent again). */
export function fileBody(media: PublishMedia): NetworkRequestBody {
  return { stream: () => media.open(), length: media.size, contentType: media.mimeType };
}

interface FilePart {
  field: string;
  filename: string;
  media: PublishMedia;
}

/**
 * A multipart/form-data body (RFC 7578) with text fields and one file part streamed from storage, its length known
 * beforehand, as networks that take a form upload need it (Mastodon's /api/v2/media).
 */
export function multipartFileBody(fields: Record<string, string>, file: FilePart): NetworkRequestBody {
  return multipartFilesBody(fields, [file]);
}

/** The same with several file parts, each streamed in turn (Telegram's albums: `attach://<field>`). */
export function multipartFilesBody(fields: Record<string, string>, files: readonly FilePart[]): NetworkRequestBody {
  const boundary = `----kit${crypto.randomUUID().replaceAll('-', '')}`;
  const quoted = (text: string) => text.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`)
      .join(''),
  );
  const fileHead = (file: FilePart, index: number) =>
    Buffer.from(
      `${index ? '\r\n' : ''}--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\n` +
        `Content-Type: ${file.media.mimeType}\r\n\r\n`,
    );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    stream: async () =>
      Readable.from(
        (async function* () {
          yield head;
          for (const [index, file] of files.entries()) {
            yield fileHead(file, index);
            yield* await file.media.open();
          }
          yield tail;
        })(),
      ),
    length: head.length + files.reduce((total, file, index) => total + fileHead(file, index).length + file.media.size, 0) + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
