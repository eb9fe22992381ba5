// The job that checks and processes an uploaded file: its real type from its bytes, its dimensions, duration and
// codecs, a thumbnail (or poster frame), a JPEG rendition of an image in another format (renditions.ts), and the
// limits of the networks. It ends `ready` or `failed` with a reason,
// and writes media.ready or media.failed to the outbox in the same transaction.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Outbox } from '../events/outbox.ts';
import { queueNames, wokenByNotify, type PgBoss } from '../jobs/boss.ts';
import type { MediaKind } from '../providers/rules.ts';
import { storageKeys, type MediaStorage } from './storage.ts';
import { acceptedFormats, largestAccepted, longestVideoMs } from './limits.ts';
import { MediaRejection, describeImage, describeVideo, detectType, typeSampleBytes, type FileDescription } from './probe.ts';
import { needsJpegRendition } from './renditions.ts';

export interface ProcessMediaJob {
  mediaId: string;
}

const kindOfExtension = (ext: string): MediaKind | null =>
  ext === 'gif'
    ? 'gif'
    : ['jpg', 'png', 'webp', 'heic', 'avif', 'tif', 'bmp'].includes(ext)
      ? 'image'
      : ['mp4', 'mov', 'webm', 'm4v', 'qt', 'mkv', 'avi'].includes(ext)
        ? 'video'
        : null;

/** Stores `file` under `key`, replacing what an earlier attempt (a retry after a crash) may have left there. */
async function storeAnew(storage: MediaStorage, key: string, file: string): Promise<void> {
  await storage.remove(key);
  await storage.write(key, createReadStream(file), (await stat(file)).size);
}

/** The image as a JPEG: its orientation applied (a JPEG made here carries no EXIF), transparency onto white. */
async function makeJpeg(path: string, jpeg: string): Promise<void> {
  try {
    await sharp(path, { failOn: 'truncated' }).rotate().flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toFile(jpeg);
  } catch (error) {
    throw new MediaRejection('corrupt', `The image cannot be converted to JPEG: ${(error as Error).message.split('\n')[0]}`);
  }
}

async function describe(storage: MediaStorage, id: string, size: number): Promise<FileDescription> {
  if (size === 0) throw new MediaRejection('empty', 'The file is empty.');
  const key = storageKeys.original(id);
  // The type from the first bytes alone (a ranged read of a bucket): a file no network takes is never copied here.
  const { ext, mime } = await detectType(await storage.readStart(key, typeSampleBytes));
  const kind = kindOfExtension(ext);
  if (!kind) throw new MediaRejection('unsupportedType', `No network takes ${mime} files.`);
  if (size > largestAccepted(kind)) {
    throw new MediaRejection('tooLarge', `The ${kind} is ${size} bytes; no network takes more than ${largestAccepted(kind)}.`);
  }
  return storage.withLocalFile(key, async (path) => {
    const directory = await mkdtemp(join(tmpdir(), 'sps-thumbnail-'));
    try {
      const thumbnail = join(directory, 'thumbnail.webp');
      const description = kind === 'video' ? await describeVideo(path, mime, ext, thumbnail) : await describeImage(path, mime, ext, thumbnail);
      if (!acceptedFormats(description.kind).has(description.format)) {
        throw new MediaRejection('unsupportedType', `No network takes ${description.format} ${description.kind === 'video' ? 'videos' : 'images'}.`);
      }
      if (description.durationMs !== null && description.durationMs > longestVideoMs()) {
        throw new MediaRejection(
          'tooLong',
          `The video lasts ${Math.round(description.durationMs / 1000)} s; no network takes more than ${Math.round(longestVideoMs() / 1000)} s.`,
        );
      }
      await storeAnew(storage, storageKeys.thumbnail(id), thumbnail);
      if (needsJpegRendition(description.kind, description.format)) {
        const jpeg = join(directory, 'rendition.jpg');
        await makeJpeg(path, jpeg);
        await storeAnew(storage, storageKeys.jpegRendition(id), jpeg);
      }
      return description;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
}

export async function processMedia(db: Database, storage: MediaStorage, outbox: Outbox, job: ProcessMediaJob): Promise<void> {
  const media = await db.prisma.media.findUnique({ where: { id: job.mediaId } });
  if (media?.status !== 'processing') return;
  let outcome: { description: FileDescription } | { rejection: MediaRejection };
  try {
    outcome = { description: await describe(storage, media.id, Number(media.size)) };
  } catch (error) {
    if (!(error instanceof MediaRejection)) throw error;
    outcome = { rejection: error };
    await storage.remove(storageKeys.thumbnail(media.id));
    await storage.remove(storageKeys.jpegRendition(media.id));
  }
  await db.prisma.$transaction(async (tx) => {
    if ('description' in outcome) {
      const { kind, mimeType, format, width, height, durationMs, codecs } = outcome.description;
      await tx.media.update({
        where: { id: media.id },
        data: {
          status: 'ready',
          type: kind,
          mimeType,
          format,
          width,
          height,
          durationMs,
          codecs,
          hasThumbnail: true,
          hasJpegRendition: needsJpegRendition(kind, format),
        },
      });
      await outbox.record(tx, media.workspaceId, 'media.ready', {
        mediaId: media.id,
        mediaType: kind,
        mimeType,
        size: Number(media.size),
        width,
        height,
        durationMs,
      });
    } else {
      const error = { code: outcome.rejection.code, message: outcome.rejection.message };
      await tx.media.update({ where: { id: media.id }, data: { status: 'failed', errorCode: error.code, errorMessage: error.message } });
      await outbox.record(tx, media.workspaceId, 'media.failed', { mediaId: media.id, error });
    }
  });
}

export async function startMediaWorkers(boss: PgBoss, db: Database, storage: MediaStorage, outbox: Outbox, logger: Logger): Promise<void> {
  await boss.work<ProcessMediaJob>(queueNames.processMedia, { batchSize: 1, localConcurrency: 2, ...wokenByNotify }, async ([job]) => {
    try {
      await processMedia(db, storage, outbox, job!.data);
    } catch (error) {
      logger.error({ err: error, mediaId: job!.data.mediaId }, 'media processing failed; it will be retried');
      throw error;
    }
  });
}
