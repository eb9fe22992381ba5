// Where media bytes live: the local disk (under DATA_DIR/media, the default) or an S3-compatible store
// (s3Storage.ts). Either also gives tus the store that resumable uploads write to, under the same keys.
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataStore } from '@tus/utils';
import { FileStore } from '@tus/file-store';
import { countingChunks, streamedChunk } from './streamedChunks.ts';

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

export interface MediaStorage {
  /**
   * Streams `source` to `key` (never holding it whole in memory) and keeps it only when it is exactly `bytes`
   * long (else TooLargeError, IncompleteError) and `key` held no file yet (else AlreadyStoredError): a file once
   * stored is never replaced.
   */
  write(key: string, source: Readable, bytes: number): Promise<void>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  /** Runs `use` with the file at a path on local disk, for tools that need one (ffprobe, ffmpeg, file-type). */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  remove(key: string): Promise<void>;
  /**
   * A URL the file can be fetched from without this service, valid `expiresInSeconds`, or null when only this
   * service can hand it out (the local disk).
   */
  directUrl(key: string, file: { expiresInSeconds: number; contentType: string; contentDisposition: string }): Promise<string | null>;
  /** The origin directUrl's URLs are on (null when it gives none). */
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
      streamedChunk(chunk.length);
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

  read(key: string): Readable {
    const counted = countingChunks();
    pipeline(createReadStream(this.pathOf(key)), counted).catch(() => {});
    return counted;
  }

  async size(key: string): Promise<number | null> {
    return stat(this.pathOf(key)).then((info) => info.size, () => null);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  readonly directOrigin = null;

  async directUrl(): Promise<null> {
    return null;
  }

  async forgetResumable(key: string): Promise<void> {
    // @tus/file-store keeps its record of an upload in `<file>.json`.
    await rm(`${this.pathOf(key)}.json`, { force: true });
  }
}

export const storageKeys = {
  original: (id: string) => `uploads/${id}`,
  thumbnail: (id: string) => `thumbnails/${id}.webp`,
};
