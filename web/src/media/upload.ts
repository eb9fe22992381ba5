// Uploads a file to the media library the way any API client does: start the upload through the graph, send the
// bytes to the signed URL it answers (the service's, or with S3 storage the bucket's, whose signature binds the
// type and length), or its parts to their URLs when it gives parts, complete it, then wait while the service
// checks and processes the file. The bytes go by XMLHttpRequest: the one browser API that reports how much of a
// request body has been sent.
import type { Client, OperationResult } from 'urql';
import { ApiError, type FieldDetail } from '../api/auth.ts';
import { apiErrorOf } from '../api/client.ts';
import { t } from '../i18n.ts';
import { CompleteUpload, MediaFileQuery, StartUpload } from './documents.ts';
import type { MediaItem } from './types.ts';

/** `sending` the bytes, `processing` (checked and processed by the service), then `ready`. */
export type UploadPhase = 'sending' | 'processing' | 'ready';

export interface UploadProgress {
  phase: UploadPhase;
  sentBytes: number;
  totalBytes: number;
}

interface SignedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
}

interface SignedUpload {
  id: string;
  uploadUrl: string;
  method: string;
  headers: Record<string, string>;
  /** Past the bucket's single-request limit: its part URLs, which take the file straight to the bucket. */
  parts: { partBytes: number; parts: (SignedRequest & { partNumber: number; bytes: number })[] } | null;
}

const pollIntervalMs = 500;

/**
 * Uploads `file` and resolves with the media file once it is ready. Refusals reject with the API's `ApiError`
 * (its localized message and details), a file the service could not process with the reason it gives.
 */
export async function uploadMedia(client: Client, file: File, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<MediaItem> {
  const report = (phase: UploadPhase, sentBytes: number) => onProgress({ phase, sentBytes, totalBytes: file.size });
  const contentType = file.type || 'application/octet-stream';
  const { startUpload } = dataOf(
    await client.mutation<{ startUpload: SignedUpload }>(StartUpload, { filename: file.name, contentType, size: file.size }).toPromise(),
  );
  report('sending', 0);
  let sentBefore = 0;
  for (const { request, body } of requestsOf(startUpload, file)) {
    await send(request, body, (sentBytes) => report('sending', sentBefore + sentBytes), signal);
    sentBefore += body.size;
  }
  report('processing', file.size);
  dataOf(await client.mutation(CompleteUpload, { id: startUpload.id }).toPromise());
  const media = await untilProcessed(client, startUpload.id, signal);
  report('ready', file.size);
  return media;
}

function dataOf<Data>(result: OperationResult<Data>): Data {
  if (result.error) throw apiErrorOf(result.error);
  return result.data!;
}

/** The requests that carry the file: the whole file to the upload URL, or each part to its own, one after the other. */
function requestsOf(upload: SignedUpload, file: File): { request: SignedRequest; body: Blob }[] {
  if (!upload.parts) return [{ request: { url: upload.uploadUrl, method: upload.method, headers: upload.headers }, body: file }];
  const { partBytes, parts } = upload.parts;
  return parts.map((part) => {
    const from = (part.partNumber - 1) * partBytes;
    return { request: part, body: file.slice(from, from + part.bytes) };
  });
}

function send(signed: SignedRequest, body: Blob, onSent: (bytes: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(signed.method, signed.url);
    for (const [name, value] of Object.entries(signed.headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onSent(event.loaded);
    request.onload = () => (request.status < 300 ? resolve() : reject(refusalOf(request)));
    request.onerror = () => reject(new ApiError('NETWORK', t('media.uploadInterrupted')));
    request.onabort = () => reject(signal?.reason);
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}

/** The upload URL's refusal in the API's error shape, or (from an object store) its HTTP status. */
function refusalOf(request: XMLHttpRequest): ApiError {
  try {
    const { error } = JSON.parse(request.responseText) as { error: { code: string; message: string; details?: FieldDetail[] } };
    return new ApiError(error.code, error.message, error.details ?? []);
  } catch {
    return new ApiError('UPLOAD_REFUSED', t('media.uploadRefused', { status: request.status }));
  }
}

async function untilProcessed(client: Client, id: string, signal?: AbortSignal): Promise<MediaItem> {
  for (;;) {
    const { mediaFile } = dataOf(await client.query<{ mediaFile: MediaItem }>(MediaFileQuery, { id }, { requestPolicy: 'network-only' }).toPromise());
    if (mediaFile.status === 'READY') return mediaFile;
    if (mediaFile.status === 'FAILED') {
      throw new ApiError(mediaFile.error?.code ?? 'MEDIA_FAILED', mediaFile.error?.message ?? t('media.processingFailed'));
    }
    await pause(pollIntervalMs, signal);
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
