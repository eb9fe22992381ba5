// Where media bytes live. The local disk (under DATA_DIR/media) is the default; an S3-compatible store can
// implement the same interface (uploads would then use @tus/s3-store beside it).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

export interface MediaStorage {
  /** Streams `source` to `key` (never holding it whole in memory); refuses more than `maxBytes`. */
  write(key: string, source: Readable, maxBytes: number): Promise<number>;
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

  async write(key: string, source: Readable, maxBytes: number): Promise<number> {
    const path = this.localPath(key);
    const partial = `${path}.part-${process.pid}-${Date.now()}`;
    await mkdir(dirname(path), { recursive: true });
    let bytes = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > maxBytes ? new TooLargeError(maxBytes) : null, chunk);
      },
    });
    try {
      await pipeline(source, limit, createWriteStream(partial));
      await rename(partial, path);
      return bytes;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
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
