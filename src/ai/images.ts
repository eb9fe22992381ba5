// POST /ai/images: the request reserves the image's credits and an in-flight place and answers 202 with the id of
// a media file (`source: "ai"`, processing). A job calls the provider, stores the image and runs it through the
// media pipeline (type, dimensions, thumbnail); the file ends ready (credits charged) or failed with the reason
// (media.failed; credits given back). A failed generation is not retried: the person asks again.
import { Readable } from 'node:stream';
import type { Actor } from '../access/actor.ts';
import { AppError, type ErrorDetail } from '../errors/appError.ts';
import { renderMessage } from '../errors/messages.ts';
import { inTransaction, queueNames, wokenByNotify, type PgBoss } from '../jobs/boss.ts';
import { refuseUnlessEmpty, textWithin } from '../limits.ts';
import { processMedia } from '../media/processing.ts';
import { countedAiCall } from '../metrics/registry.ts';
import { storageKeys } from '../media/storage.ts';
import type { Ai } from './ai.ts';
import { releaseCredits, reserveCredits, settleCredits, type Reservation } from './credits.ts';
import { aiNotConfigured } from './failures.ts';
import { imageSizes, type ImageSize } from './provider.ts';

const imageLimits = { prompt: 4000 } as const;
/** An image's reservation waits for its job as well as for the provider: it lapses only after this long. */
const imageReservationMs = 3_600_000;

export interface GenerateImageJob {
  mediaId: string;
  reservation: Reservation;
  prompt: string;
  size: ImageSize;
}

export async function requestImage(ai: Ai, actor: Actor, input: { prompt: string; size?: string | null }): Promise<{ mediaId: string }> {
  ai.begin(actor, 'generateImage');
  const size = imageSizes.find((candidate) => candidate === (input.size ?? imageSizes[0]));
  const details: ErrorDetail[] = textWithin('prompt', input.prompt, imageLimits.prompt);
  if (!input.prompt?.trim()) details.push({ field: 'prompt', code: 'minLength', messageKey: 'detail.minLength', params: { limit: 1 } });
  if (!size) details.push({ field: 'size', code: 'enum', messageKey: 'detail.enum', params: { allowed: imageSizes.join(', ') } });
  refuseUnlessEmpty(details);
  const reservation = await reserveCredits(ai.db, actor.workspaceId, 'image', {
    maxInFlight: ai.settings.maxConcurrent,
    ttlMs: ai.settings.timeoutMs + imageReservationMs,
  });
  try {
    return await ai.db.prisma.$transaction(async (tx) => {
      const media = await tx.media.create({
        data: {
          workspaceId: actor.workspaceId,
          createdById: actor.userId,
          status: 'processing',
          source: 'ai',
          filename: 'ai-image.png',
          declaredType: 'image/png',
          size: 0n,
          uploadExpiresAt: new Date(),
        },
      });
      const job: GenerateImageJob = { mediaId: media.id, reservation, prompt: input.prompt, size: size! };
      await ai.boss.insert(queueNames.generateImage, [{ data: job }], { db: inTransaction(tx) });
      return { mediaId: media.id };
    });
  } catch (error) {
    await releaseCredits(ai.db, reservation);
    throw error;
  }
}

async function failImage(ai: Ai, job: GenerateImageJob, error: AppError): Promise<void> {
  const reason = { code: error.code, message: renderMessage('en', error.messageKey, error.params) };
  await ai.db.prisma.$transaction(async (tx) => {
    const { count } = await tx.media.updateMany({
      where: { id: job.mediaId, status: 'processing' },
      data: { status: 'failed', errorCode: reason.code, errorMessage: reason.message },
    });
    const media = await tx.media.findUnique({ where: { id: job.mediaId }, select: { workspaceId: true } });
    if (count && media) await ai.outbox.record(tx, media.workspaceId, 'media.failed', { mediaId: job.mediaId, error: reason });
  });
  await releaseCredits(ai.db, job.reservation);
}

export async function generateImage(ai: Ai, job: GenerateImageJob): Promise<void> {
  const media = await ai.db.prisma.media.findUnique({ where: { id: job.mediaId } });
  if (media?.status !== 'processing') return releaseCredits(ai.db, job.reservation);
  const key = storageKeys.original(media.id);
  // A retry after a crash finds the image already stored, and goes on with processing.
  if ((await ai.storage.size(key)) === null) {
    try {
      const provider = ai.provider;
      if (!provider) throw aiNotConfigured();
      const image = await countedAiCall('image', () => provider.generateImage({ prompt: job.prompt, size: job.size }));
      await ai.storage.write(key, Readable.from([image]), image.length);
      await ai.db.prisma.media.update({ where: { id: media.id }, data: { size: BigInt(image.length) } });
    } catch (error) {
      if (error instanceof AppError) return failImage(ai, job, error);
      throw error;
    }
  }
  await processMedia(ai.db, ai.storage, ai.outbox, { mediaId: media.id });
  const processed = await ai.db.prisma.media.findUnique({ where: { id: media.id }, select: { status: true } });
  if (processed?.status === 'ready') await settleCredits(ai.db, ai.outbox, job.reservation);
  else await releaseCredits(ai.db, job.reservation);
}

export async function startAiWorkers(boss: PgBoss, ai: Ai): Promise<void> {
  await boss.work<GenerateImageJob>(queueNames.generateImage, { batchSize: 1, localConcurrency: 2, ...wokenByNotify }, async ([job]) => {
    try {
      await generateImage(ai, job!.data);
    } catch (error) {
      ai.logger.error({ err: error, mediaId: job!.data.mediaId }, 'ai image generation failed; it will be retried');
      throw error;
    }
  });
}
