// Where media bytes live: the local disk (under DATA_DIR/media, the default) or an S3-compatible store
// (s3Storage.ts). Either also gives tus the store that resumable uploads write to, under the same keys.
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataStore } from '@tus/utils';
import { FileStore } from '@tus/file-store';

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

export class IncompleteError extends Error {
  constructor(
    readonly received: number,
    readonly expected: number,
  ) {
    super(`${received} of ${expected} bytes`);
  }
}

export class AlreadyStoredError extends Error {
  constructor(readonly key: string) {
    super(`${key} already holds a file`);
  }
}

/** The store failed or could not be reached; nothing of the file was kept. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the media store failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** A presigned request of the store: sent as is, with these headers (the signature binds them). */
export interface PresignedRequest {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/** The whole file in one request, or (past the store's single-request limit) in parts of `partBytes`, the last one shorter. */
export type DirectUpload = { whole: PresignedRequest } | { partBytes: number; parts: (PresignedRequest & { partNumber: number; bytes: number })[] };

/** Bytes `start` up to, not including, `end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaStorage {
  /**
   * Streams `source` to `key` (never holding it whole in memory) and keeps it only when it is exactly `bytes`
   * long (else TooLargeError, IncompleteError) and `key` held no file yet (else AlreadyStoredError): a file once
   * stored is never replaced.
   */
  write(key: string, source: Readable, bytes: number): Promise<void>;
  /** The file, or the bytes `range.start` up to (not including) `range.end`. */
  read(key: string, range?: ByteRange): Readable;
  /** The first `bytes` of the file (fewer when it is shorter): enough to tell its type without reading it all. */
  readStart(key: string, bytes: number): Promise<Buffer>;
  size(key: string): Promise<number | null>;
  /** Runs `use` with the file at a path on local disk, for tools that need one (ffprobe, ffmpeg, file-type). */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  remove(key: string): Promise<void>;
  /**
   * A URL the file can be fetched from without this service, valid `expiresInSeconds`, or null when only this
   * service can hand it out (the local disk).
   */
  directUrl(key: string, file: { expiresInSeconds: number; contentType: string; contentDisposition: string }): Promise<string | null>;
  /**
   * Where a client sends the file of `bytes` itself, straight to the store (never through this service), valid
   * `expiresInSeconds`; null when the bytes come through this service (the local disk).
   */
  directUpload(key: string, file: { bytes: number; contentType: string; expiresInSeconds: number }): Promise<DirectUpload | null>;
  /**
   * Makes the file a direct upload sent readable under `key` (the parts of a multipart upload become one object);
   * IncompleteError while bytes are missing. Nothing to do when the file came whole or through this service.
   */
  settleDirectUpload(key: string, bytes: number): Promise<void>;
  /** The origin directUrl's and directUpload's URLs are on (null when it gives none). */
  readonly directOrigin: string | null;
  /** The store tus writes resumable uploads to: an upload's tus id is the key its finished file is read under. */
  readonly resumable: DataStore;
  /** Drops what tus kept about a finished upload beside its file. */
  forgetResumable(key: string): Promise<void>;
}

/**
 * Passes exactly `bytes` on: past them it fails with TooLargeError, and a source ending short of them fails with
 * IncompleteError before the stream ends, so no store ever sees a short file finish.
 */
export function exactBytes(bytes: number): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > bytes ? new TooLargeError(bytes) : null, chunk);
    },
    flush(done) {
      done(received < bytes ? new IncompleteError(received, bytes) : null);
    },
  });
}

export class LocalDiskStorage implements MediaStorage {
  readonly resumable: DataStore;

  constructor(readonly root: string) {
    this.resumable = new FileStore({ directory: root });
  }

  private pathOf(key: string): string {
    return join(this.root, key);
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.pathOf(key));
  }

  async write(key: string, source: Readable, bytes: number): Promise<void> {
    const path = this.pathOf(key);
    const partial = `${path}.part-${process.pid}-${Date.now()}`;
    await mkdir(dirname(path), { recursive: true });
    try {
      await pipeline(source, exactBytes(bytes), createWriteStream(partial));
      // A hard link is created only where no file is: of two writers racing, one stores and the other is told.
      await link(partial, path).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new AlreadyStoredError(key) : error;
      });
    } finally {
      await rm(partial, { force: true });
    }
  }

  read(key: string, range?: ByteRange): Readable {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end - 1 } : {});
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const file = await open(this.pathOf(key));
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(bytes), 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async size(key: string): Promise<number | null> {
    return stat(this.pathOf(key)).then(
      (info) => info.size,
      () => null,
    );
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  readonly directOrigin = null;

  async directUrl(): Promise<null> {
    return null;
  }

  async directUpload(): Promise<null> {
    return null;
  }

  async settleDirectUpload(): Promise<void> {}

  async forgetResumable(key: string): Promise<void> {
    // @tus/file-store keeps its record of an upload in `<file>.json`.
    await rm(`${this.pathOf(key)}.json`, { force: true });
  }
}

export const storageKeys = {
  original: (id: string) => `uploads/${id}`,
  thumbnail: (id: string) => `thumbnails/${id}.webp`,
  jpegRendition: (id: string) => `renditions/${id}.jpg`,
};
