// Where media bytes live. The local disk (under DATA_DIR/media) is the default; an S3-compatible store can
// implement the same interface (uploads would then use @tus/s3-store beside it).
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

export interface MediaStorage {
  /**
   * Streams `source` to `key` (never holding it whole in memory) and keeps it only when it is exactly `bytes`
   * long (else TooLargeError, IncompleteError) and `key` held no file yet (else AlreadyStoredError): a file once
   * stored is never replaced.
   */
  write(key: string, source: Readable, bytes: number): Promise<void>;
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  /** A path on local disk for tools that need one (ffprobe, sharp). */
  localPath(key: string): string;
  remove(key: string): Promise<void>;
}

export class LocalDiskStorage implements MediaStorage {
  constructor(readonly root: string) {}

  localPath(key: string): string {
    return join(this.root, key);
  }

  async write(key: string, source: Readable, bytes: number): Promise<void> {
    const path = this.localPath(key);
    const partial = `${path}.part-${process.pid}-${Date.now()}`;
    await mkdir(dirname(path), { recursive: true });
    let received = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(received > bytes ? new TooLargeError(bytes) : null, chunk);
      },
    });
    try {
      await pipeline(source, limit, createWriteStream(partial));
      if (received < bytes) throw new IncompleteError(received, bytes);
      // A hard link is created only where no file is: of two writers racing, one stores and the other is told.
      await link(partial, path).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new AlreadyStoredError(key) : error;
      });
    } finally {
      await rm(partial, { force: true });
    }
  }

  read(key: string): Readable {
    return createReadStream(this.localPath(key));
  }

  async size(key: string): Promise<number | null> {
    return stat(this.localPath(key)).then((info) => info.size, () => null);
  }

  async remove(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }
}

export const storageKeys = {
  original: (id: string) => `uploads/${id}`,
  thumbnail: (id: string) => `thumbnails/${id}.webp`,
};
