// Uploads: a client starts one and gets where to send the bytes: a signed, expiring URL on this service (local
// disk), or presigned URLs of the bucket (S3: one PUT, or a multipart upload's parts past the single-PUT limit),
// and the resumable tus protocol through this service for large files; then it completes the upload, which
// queues checking and processing.
import type { Readable } from 'node:stream';
import { AppError, invalidRequest, notFound } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { UrlSigner } from '../crypto/urlSigner.ts';
import { isUuid } from '../ids.ts';
import { lockOwnedRow } from '../db/locks.ts';
import { inTransaction, queueNames, type PgBoss } from '../jobs/boss.ts';
import { AlreadyStoredError, IncompleteError, storageKeys, StorageUnavailableError, TooLargeError, type MediaStorage } from './storage.ts';
import type { Media } from '../db/generated/prisma/client.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';

export const uploadTtlSeconds = 24 * 3600;
/** Chunk size suggested to resumable (tus) clients. */
export const resumableChunkBytes = 64 * 1024 * 1024;

export interface UploadSettings {
  publicBaseUrl: string;
  maxUploadBytes: number;
}

export const uploadSubject = (id: string) => `upload:${id}`;

export function uploadToken(signer: UrlSigner, id: string): string {
  const { expires, signature } = signer.sign(uploadSubject(id), uploadTtlSeconds);
  return `${expires}.${signature}`;
}

/** A new upload waiting for its file of `size` bytes (the declared type and name kept). */
export async function createUpload(
  db: Database,
  settings: UploadSettings,
  actor: Actor,
  input: { filename: string; contentType: string; size: number },
): Promise<Media> {
  authorize(actor, 'startUpload');
  refuseUnlessEmpty([
    ...textWithin('filename', input.filename, inputLimits.upload.filename, 1),
    ...textWithin('contentType', input.contentType, inputLimits.upload.contentType, 1),
    ...(Number.isSafeInteger(input.size) && input.size >= 1
      ? []
      : [{ field: 'size', code: 'minimum', messageKey: 'detail.minimum' as const, params: { limit: 1 } }]),
  ]);
  if (input.size > settings.maxUploadBytes) {
    throw invalidRequest([{ field: 'size', code: 'maximum', messageKey: 'detail.maximum', params: { limit: settings.maxUploadBytes } }]);
  }
  return db.prisma.media.create({
    data: {
      workspaceId: actor.workspaceId,
      createdById: actor.userId,
      filename: input.filename,
      declaredType: input.contentType,
      size: BigInt(input.size),
      uploadExpiresAt: new Date(Date.now() + uploadTtlSeconds * 1000),
    },
  });
}

/**
 * Starts an upload and says where its bytes go. `uploadUrl` takes the whole file in one request: the bucket's
 * presigned PUT, or this service's signed URL (local disk, and a file past the bucket's single-PUT limit, which
 * the service streams on in parts); `parts`, when the bucket takes the file only in parts, are its presigned part
 * URLs, which keep the bytes off this service.
 */
export async function startUpload(
  db: Database,
  storage: MediaStorage,
  signer: UrlSigner,
  settings: UploadSettings,
  actor: Actor,
  input: { filename: string; contentType: string; size: number },
) {
  const media = await createUpload(db, settings, actor, input);
  const token = uploadToken(signer, media.id);
  const [expires, signature] = token.split('.');
  const expiresInSeconds = Math.floor((media.uploadExpiresAt.getTime() - Date.now()) / 1000);
  const direct = await storage
    .directUpload(storageKeys.original(media.id), { bytes: input.size, contentType: input.contentType, expiresInSeconds })
    .catch((error: unknown) => {
      throw storageUnavailable(error);
    });
  const whole =
    direct && 'whole' in direct
      ? direct.whole
      : {
          url: `${settings.publicBaseUrl}/uploads/${media.id}?expires=${expires}&signature=${signature}`,
          method: 'PUT' as const,
          headers: { 'content-type': input.contentType },
        };
  return {
    id: media.id,
    uploadUrl: whole.url,
    method: whole.method,
    headers: whole.headers,
    expiresAt: media.uploadExpiresAt.toISOString(),
    maxBytes: input.size,
    parts: direct && 'parts' in direct ? direct : null,
    resumable: {
      protocol: 'tus',
      version: '1.0.0',
      endpoint: `${settings.publicBaseUrl}/uploads/tus`,
      headers: { 'x-upload-token': token },
      metadata: { uploadId: media.id, filename: input.filename, filetype: input.contentType },
      chunkSize: resumableChunkBytes,
    },
  };
}

/** The upload that a signed URL or tus token allows, still waiting for its bytes; throws otherwise. */
export async function uploadAllowedBy(db: Database, signer: UrlSigner, id: string, expires: unknown, signature: unknown): Promise<Media> {
  if (!isUuid(id) || !signer.verify(uploadSubject(id), expires, signature)) throw new AppError('FORBIDDEN', 'uploadUrlInvalid');
  const media = await db.prisma.media.findUnique({ where: { id } });
  if (!media) throw notFound('upload');
  if (media.status !== 'uploading') throw new AppError('INVALID_STATE_TRANSITION', 'uploadClosed', { status: media.status });
  return media;
}

const fileReceived = () => new AppError('CONFLICT', 'uploadReceived');
/** 503: the store failed while taking the file; nothing of it was kept, and the upload takes it again. */
export const storageUnavailable = (cause: unknown) => new AppError('STORAGE_UNAVAILABLE', 'storageUnavailable', {}, { cause });

/** 409 once the upload holds its file (sent whole, or being sent over tus): an upload carries one file. */
export async function refuseSecondFile(storage: MediaStorage, id: string): Promise<void> {
  const key = storageKeys.original(id);
  if ((await storage.size(key)) !== null) throw fileReceived();
  // An object store shows the file only once complete; tus's record says it is on its way.
  if (
    await storage.resumable.getUpload(key).then(
      () => true,
      () => false,
    )
  )
    throw fileReceived();
}

/** `image/png; charset=x` → `image/png` */
const essenceOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/**
 * Streams the whole file of a signed PUT to storage. It must carry the Content-Type declared when the upload
 * started and exactly the declared number of bytes, and the upload must not hold a file yet.
 */
export async function receiveUpload(
  db: Database,
  storage: MediaStorage,
  signer: UrlSigner,
  request: { id: string; expires: unknown; signature: unknown; contentType: string | undefined; body: Readable },
): Promise<number> {
  const { id } = request;
  const media = await uploadAllowedBy(db, signer, id, request.expires, request.signature);
  if (essenceOf(request.contentType ?? '') !== essenceOf(media.declaredType)) {
    throw invalidRequest([
      { field: 'content-type', code: 'contentTypeMismatch', messageKey: 'detail.contentTypeMismatch', params: { expected: media.declaredType } },
    ]);
  }
  await refuseSecondFile(storage, id);
  const size = Number(media.size);
  try {
    await storage.write(storageKeys.original(id), request.body, size);
    return size;
  } catch (error) {
    if (error instanceof TooLargeError) {
      throw invalidRequest([{ field: 'body', code: 'tooLarge', messageKey: 'detail.tooLarge', params: { limit: error.limit } }]);
    }
    if (error instanceof IncompleteError) {
      throw invalidRequest([
        { field: 'body', code: 'incomplete', messageKey: 'detail.bodyIncomplete', params: { received: error.received, expected: error.expected } },
      ]);
    }
    if (error instanceof AlreadyStoredError) throw fileReceived();
    if (error instanceof StorageUnavailableError) throw storageUnavailable(error);
    throw error;
  }
}

const incomplete = (received: number | string, expected: bigint) =>
  invalidRequest([{ field: 'upload', code: 'incomplete', messageKey: 'detail.uploadIncomplete', params: { received, expected: expected.toString() } }]);

/** Queues checking and processing of the received file; 400 while bytes are missing. */
export async function completeUpload(db: Database, boss: PgBoss, storage: MediaStorage, actor: Actor, id: string): Promise<Media> {
  authorize(actor, 'completeUpload');
  const upload = isUuid(id) ? await db.prisma.media.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!upload) throw notFound('upload');
  // Parts sent straight to the bucket become its file now, outside the transaction: the store may take a while.
  if (upload.status === 'uploading') {
    await storage.settleDirectUpload(storageKeys.original(id), Number(upload.size)).catch((error: unknown) => {
      if (error instanceof IncompleteError) throw incomplete(error.received, upload.size);
      throw error instanceof StorageUnavailableError ? storageUnavailable(error) : error;
    });
  }
  return db.prisma.$transaction(async (tx) => {
    if (!(await lockOwnedRow(tx, 'media', actor.workspaceId, id))) throw notFound('upload');
    const media = await tx.media.findUniqueOrThrow({ where: { id } });
    if (media.status !== 'uploading') throw new AppError('INVALID_STATE_TRANSITION', 'uploadClosed', { status: media.status });
    const received = (await storage.size(storageKeys.original(id))) ?? 0;
    if (BigInt(received) !== media.size) throw incomplete(received, media.size);
    const processing = await tx.media.update({ where: { id }, data: { status: 'processing' } });
    await boss.insert(queueNames.processMedia, [{ data: { mediaId: id } }], { db: inTransaction(tx) });
    return processing;
  });
}
