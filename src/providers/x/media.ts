// One file to X through the v2 chunked upload, every call a step of the checkpoint (an attempt after a crash or a
// retry sends nothing X already has):
//   POST /2/media/upload/initialize {media_type, total_bytes, media_category}  https://docs.x.com/x-api/media/initialize-media-upload
//   POST /2/media/upload/{id}/append  multipart segment_index + media (<= 5 MB) https://docs.x.com/x-api/media/append-media-upload
//   POST /2/media/upload/{id}/finalize                                        https://docs.x.com/x-api/media/finalize-media-upload
//   GET  /2/media/upload?command=STATUS&media_id=  until `succeeded`           https://docs.x.com/x-api/media/get-media-upload-status
//   POST /2/media/metadata {id, metadata: {alt_text: {text}}}                 https://docs.x.com/x-api/media/create-media-metadata
// (guide: https://docs.x.com/x-api/media/quickstart/media-upload-chunked). A file X is still processing is not ready:
// the adapter answers `processing`, and the next attempt asks STATUS instead of uploading again.
import { ProviderError, type PublishMedia } from '../adapter.ts';
import type { NetworkHttp } from '../http.ts';
import type { Steps } from '../kit/steps.ts';
import { uploadSegments } from '../kit/upload.ts';
import { dataOf, type MediaAnswer, type ProcessingInfo } from './api.ts';

/** Below X's 5 MB per APPEND; memory per upload is about one segment. */
export const segmentBytes = 4 * 1024 * 1024;

const categories: Record<PublishMedia['kind'], string> = { image: 'tweet_image', gif: 'tweet_gif', video: 'tweet_video' };

export interface Session {
  apiBaseUrl: string;
  accessToken: string;
  signal: AbortSignal;
}

export type MediaState = { ready: true; id: string } | { ready: false; checkAfterMs: number };

/** X keeps an uploaded media id for a day (`expires_after_secs`); an attempt later than this uploads the file again. */
const mediaIdLifetimeMs = 23 * 3600_000;

export async function uploadMedia(http: NetworkHttp, session: Session, steps: Steps, step: string, media: PublishMedia): Promise<MediaState> {
  const initializedAt = steps.recordedAt(`${step}:initialize`);
  if (initializedAt !== undefined && Date.now() - initializedAt > mediaIdLifetimeMs) await steps.forget(step);
  const finished = steps.result<string>(step);
  if (finished) return { ready: true, id: finished };
  const call = <T>(method: 'GET' | 'POST', path: string, body?: Parameters<NetworkHttp['send']>[0]['body'], idempotent = true) =>
    http.send<T>({ method, url: `${session.apiBaseUrl}${path}`, accessToken: session.accessToken, body, signal: session.signal, idempotent });
  // Re-sent when interrupted: an unused media id expires at X by itself, and an append replaces its segment.
  const id = await steps.once(`${step}:initialize`, async () => {
    const { body } = await call<MediaAnswer>(
      'POST',
      '/2/media/upload/initialize',
      { json: { media_type: media.mimeType, total_bytes: media.size, media_category: categories[media.kind] } },
      false,
    );
    return dataOf(body, 'media id').id;
  });
  await uploadSegments(steps, `${step}:append`, media, segmentBytes, async ({ index, bytes }) => {
    const form = new FormData();
    form.set('segment_index', String(index));
    // A segment read from storage is never shared memory: no copy needed.
    form.set('media', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), 'segment');
    await call('POST', `/2/media/upload/${id}/append`, { multipart: form });
  });
  const finalized = steps.result<ProcessingInfo | null>(`${step}:finalize`) !== undefined;
  const processing = finalized
    ? await call<MediaAnswer>('GET', `/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`).then(
        ({ body }) => dataOf(body, 'media status').processing_info ?? null,
      )
    : await steps.once(
        `${step}:finalize`,
        async () => dataOf((await call<MediaAnswer>('POST', `/2/media/upload/${id}/finalize`)).body, 'media').processing_info ?? null,
      );
  if (processing?.state === 'failed') {
    throw new ProviderError('PROVIDER_REJECTED', `X could not process the ${media.kind}: ${processing.error?.message ?? 'no reason given'}.`, false);
  }
  if (processing && processing.state !== 'succeeded') return { ready: false, checkAfterMs: (processing.check_after_secs ?? 5) * 1000 };
  if (media.altText && media.kind !== 'video') {
    await steps.once(`${step}:alt`, () => call('POST', '/2/media/metadata', { json: { id, metadata: { alt_text: { text: media.altText } } } }));
  }
  return { ready: true, id: await steps.record(step, id) };
}
