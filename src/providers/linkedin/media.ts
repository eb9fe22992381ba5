// Media for a LinkedIn post, each upload a step of the publish's checkpoint:
//   Images API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/images-api
//     POST /rest/images?action=initializeUpload {initializeUploadRequest: {owner}} -> {value: {uploadUrl, image}},
//     then a PUT of the file (streamed) to uploadUrl; LinkedIn processes it, and a post may use it once
//     GET /rest/images/{urn} says `status` AVAILABLE (WAITING_UPLOAD, PROCESSING; PROCESSING_FAILED: refused). A
//     member's token may not read their images (only an organization's can): those are given one status check's
//     time instead (postiz linkedin.provider.ts: "LinkedIn rejects the post with a processing error" otherwise).
//   Videos API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/videos-api
//     POST /rest/videos?action=initializeUpload {initializeUploadRequest: {owner, fileSizeBytes, ...}} ->
//     {value: {video, uploadToken, uploadInstructions: [{uploadUrl, firstByte, lastByte}]}}; a PUT of each part
//     (its ETag kept); POST /rest/videos?action=finalizeUpload {finalizeUploadRequest: {video, uploadToken,
//     uploadedPartIds}}; GET /rest/videos/{urn} until `status` is AVAILABLE (PROCESSING_FAILED: refused).
import { ProviderError, type ConnectedAccount, type PublishMedia } from '../adapter.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import type { Steps } from '../kit/steps.ts';
import { fileBody, uploadSegments } from '../kit/upload.ts';
import { restliUrn, type LinkedInApi } from './api.ts';

export interface Session {
  api: LinkedInApi;
  accessToken: string;
  /** The member's or the organization's URN: the owner of uploads and the author of posts. */
  author: string;
  signal?: AbortSignal;
}

/** How the account calls LinkedIn: its member's token, as itself (a member) or as its page (an organization). */
export function sessionOf(api: LinkedInApi, account: ConnectedAccount, signal?: AbortSignal): Session {
  if (!account.remoteId?.startsWith('urn:li:'))
    throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The LinkedIn account has no member or organization URN: connect it again.', false);
  return { api, accessToken: tokensOf(account).accessToken, author: account.remoteId, signal };
}

interface InitializedVideo {
  video: string;
  uploadToken: string;
  parts: { uploadUrl: string; firstByte: number; lastByte: number }[];
}

type MediaStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

/** The image's URN once LinkedIn has its bytes (a re-sent step uploads a new image; LinkedIn drops unused ones). */
export async function uploadImage(session: Session, media: PublishMedia): Promise<string> {
  const { api, accessToken, author, signal } = session;
  const { body } = await api.send<{ value?: { uploadUrl?: string; image?: string } }>({
    method: 'POST',
    path: '/rest/images?action=initializeUpload',
    accessToken,
    body: { json: { initializeUploadRequest: { owner: author } } },
    signal,
  });
  const image = urnOf(body.value?.image, 'image');
  await api.upload(body.value?.uploadUrl, { accessToken, body: fileBody(media), signal });
  return image;
}

/**
 * Uploads a video once across attempts (its parts each a step) and answers its URN when LinkedIn has processed it,
 * or null while it is still processing (the status check resumes the publish, which asks again).
 */
export async function uploadedVideo(steps: Steps, session: Session, media: PublishMedia, prefix: string): Promise<string | null> {
  const { api, accessToken, signal } = session;
  const initialized = await steps.once(`${prefix}:initialize`, () => initializeVideo(session, media));
  if (steps.result(`${prefix}:available`)) return initialized.video;
  const ranges = initialized.parts.map((part, index) => ({ index, start: part.firstByte, end: part.lastByte + 1 }));
  const etags = await uploadSegments(
    steps,
    `${prefix}:part`,
    media,
    0,
    async ({ index, bytes }) => {
      const { headers } = await api.upload(initialized.parts[index]!.uploadUrl, {
        accessToken,
        body: { bytes, contentType: 'application/octet-stream' },
        signal,
      });
      const etag = headers.etag;
      if (typeof etag !== 'string' || !etag) throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn took a video part without its ETag.', true);
      return etag;
    },
    ranges,
  );
  await steps.once(
    `${prefix}:finalize`,
    () =>
      api.send({
        method: 'POST',
        path: '/rest/videos?action=finalizeUpload',
        accessToken,
        body: { json: { finalizeUploadRequest: { video: initialized.video, uploadToken: initialized.uploadToken, uploadedPartIds: etags } } },
        signal,
      }),
    // Finalized already if LinkedIn no longer waits for the upload.
    { ifInterrupted: async () => ((await videoStatus(session, initialized.video)) === 'WAITING_UPLOAD' ? null : {}) },
  );
  const status = await videoStatus(session, initialized.video);
  if (status === 'PROCESSING_FAILED') throw new ProviderError('PROVIDER_REJECTED', 'LinkedIn could not process the video.', false);
  if (status !== 'AVAILABLE') return null;
  await steps.record(`${prefix}:available`, true);
  return initialized.video;
}

async function initializeVideo(session: Session, media: PublishMedia): Promise<InitializedVideo> {
  const { body } = await session.api.send<{ value?: { video?: string; uploadToken?: string; uploadInstructions?: InitializedVideo['parts'] } }>({
    method: 'POST',
    path: '/rest/videos?action=initializeUpload',
    accessToken: session.accessToken,
    body: { json: { initializeUploadRequest: { owner: session.author, fileSizeBytes: media.size, uploadCaptions: false, uploadThumbnail: false } } },
    signal: session.signal,
  });
  const parts = body.value?.uploadInstructions ?? [];
  if (!parts.length) throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn gave no upload instructions for the video.', true);
  return { video: urnOf(body.value?.video, 'video'), uploadToken: body.value?.uploadToken ?? '', parts };
}

/**
 * Whether LinkedIn has processed the uploaded images, as a post needs (see above): false while it has not, the
 * status check resuming the publish, which asks again.
 */
export async function imagesAvailable(steps: Steps, session: Session, images: readonly string[]): Promise<boolean> {
  if (steps.result('images:available')) return true;
  for (const image of images) {
    const status = await mediaStatus(session, 'images', image).catch((error: unknown) => {
      if (error instanceof ProviderError && error.code === 'PROVIDER_REJECTED') return 'unreadable' as const;
      throw error;
    });
    if (status === 'unreadable') {
      if (steps.result('images:waited')) break;
      await steps.record('images:waited', true);
      return false;
    }
    if (status === 'PROCESSING_FAILED') throw new ProviderError('PROVIDER_REJECTED', 'LinkedIn could not process an image.', false);
    if (status !== 'AVAILABLE') return false;
  }
  await steps.record('images:available', true);
  return true;
}

const videoStatus = (session: Session, video: string) => mediaStatus(session, 'videos', video);

async function mediaStatus(session: Session, kind: 'images' | 'videos', urn: string): Promise<MediaStatus> {
  const { body } = await session.api.send<{ status?: MediaStatus }>({
    method: 'GET',
    path: `/rest/${kind}/${restliUrn(urn)}`,
    accessToken: session.accessToken,
    signal: session.signal,
  });
  return body.status ?? 'PROCESSING';
}

function urnOf(value: unknown, what: string): string {
  if (typeof value === 'string' && value.startsWith('urn:li:')) return value;
  throw new ProviderError('PROVIDER_UNAVAILABLE', `LinkedIn answered without the ${what}'s URN.`, true);
}
