// Facebook reels through the Reels Publishing API, each phase a checkpoint step:
//   Reels Publishing API  https://developers.facebook.com/docs/video-api/guides/reels-publishing
//     1. POST /{page-id}/video_reels `upload_phase=start` → `{video_id, upload_url}`
//     2. POST <rupload.facebook.com>/video-upload/{api-version}/{video-id} with `Authorization: OAuth <page token>`,
//        `offset` and `file_size` headers and the file's bytes → `{success: true}`
//     3. POST /{page-id}/video_reels `upload_phase=finish`, `video_id`, `video_state=PUBLISHED`, `description`
//     then GET /{video-id}?fields=status (`uploading_phase` with `bytes_transferred`, `processing_phase`,
//     `publishing_phase`, each `not_started` | `in_progress` | `complete` | `error` with `errors`) until published.
//   Video Status  https://developers.facebook.com/docs/graph-api/reference/video-status
// A crash between start and finish resumes the same video id (the start step is recorded): an interrupted upload
// goes on from the bytes Meta says it received, and finish names that video, so no second reel is made.
import { ProviderError, type PublishMedia } from '../adapter.ts';
import type { Steps } from '../kit/steps.ts';
import type { Graph } from '../meta/graph.ts';

type PhaseStatus = 'not_started' | 'in_progress' | 'complete' | 'error';

interface Phase {
  status?: PhaseStatus;
  errors?: { code?: number; message?: string }[];
}

interface ReelStatus {
  video_status?: string;
  uploading_phase?: Phase & { bytes_transferred?: number };
  processing_phase?: Phase;
  publishing_phase?: Phase;
}

export interface ReelPublishing {
  graph: Graph;
  /** `<FACEBOOK_UPLOAD_BASE_URL>/video-upload/<api-version>`: where a reel's bytes go. */
  uploadUrl: string;
  page: string;
  token: string;
  signal: AbortSignal;
}

/** The reel's video id once Meta has published it; null while it is still processing or publishing. */
export async function publishedReel(steps: Steps, reel: ReelPublishing, video: PublishMedia, description: string): Promise<string | null> {
  const { graph, page, token, signal } = reel;
  const statusOf = async (id: string) => (await graph.get<{ status?: ReelStatus }>(`/${id}`, token, { fields: 'status' }, signal)).status ?? {};
  const { video_id: id } = await steps.once('reel:start', () =>
    graph.post<{ video_id: string }>(`/${page}/video_reels`, token, { upload_phase: 'start' }, signal),
  );
  await steps.once('reel:upload', () => upload(reel, id, video, 0), {
    // Meta keeps what it received of an upload: an interrupted one is sent on from there.
    ifInterrupted: async () => upload(reel, id, video, (await statusOf(id)).uploading_phase?.bytes_transferred ?? 0),
  });
  await steps.once(
    'reel:finish',
    () =>
      graph.post<{ success?: boolean }>(`/${page}/video_reels`, token, { upload_phase: 'finish', video_id: id, video_state: 'PUBLISHED', description }, signal),
    // Finish names the video, so sending it again cannot make a second reel; one Meta took shows in the publishing phase.
    { ifInterrupted: async () => (((await statusOf(id)).publishing_phase?.status ?? 'not_started') === 'not_started' ? null : { success: true }) },
  );
  const status = await statusOf(id);
  const failed = [status.uploading_phase, status.processing_phase, status.publishing_phase].find((phase) => phase?.status === 'error');
  if (failed || status.video_status === 'error') {
    const reason = failed?.errors?.map((error) => error.message).find(Boolean);
    throw new ProviderError('PROVIDER_REJECTED', `Facebook could not publish the reel${reason ? `: ${reason}` : '.'}`, false);
  }
  return status.publishing_phase?.status === 'complete' ? id : null;
}

/** Sends the file's bytes from `offset` on to the rupload host (the Page token as `OAuth`, not Bearer). */
async function upload({ graph, uploadUrl, token, signal }: ReelPublishing, id: string, video: PublishMedia, offset: number): Promise<true> {
  if (offset >= video.size) return true;
  await graph.sendTo({
    method: 'POST',
    url: `${uploadUrl}/${id}`,
    headers: { authorization: `OAuth ${token}`, offset: String(offset), file_size: String(video.size) },
    body: { stream: () => video.open({ start: offset, end: video.size }), length: video.size - offset, contentType: 'application/octet-stream' },
    signal,
  });
  return true;
}
