// YouTube: a channel (channel.ts) publishing videos and Shorts through the YouTube Data API v3.
//   publish   videos.insert as a resumable upload (https://developers.google.com/youtube/v3/docs/videos/insert,
//             https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol): POST
//             /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status with the video resource
//             (snippet: title, description, tags, categoryId; status: privacyStatus, selfDeclaredMadeForKids) and
//             X-Upload-Content-Length/-Type opens a session (its URL in `Location`), kept as a step; the bytes go
//             there in chunks (kit/resumable.ts). A thumbnail (setting `thumbnailMediaId`) is then set with
//             thumbnails.set (https://developers.google.com/youtube/v3/docs/thumbnails/set). The video is published
//             once processed (https://developers.google.com/youtube/v3/docs/videos#status.uploadStatus): until then the
//             target waits (`processing`) and the status check resumes the publish, which asks again (videos.list).
//             A Short is a vertical video of up to 3 minutes (the `short` placement's rules): YouTube has no flag
//             for it, only its own page, https://www.youtube.com/shorts/<id>.
//   no duplicates  (`look-up`) a video comes to exist only when its upload session has every byte, and each
//             target has one session, saved before the first byte is sent: a re-attempt or a worker killed mid-upload
//             asks that session where it stands (`Content-Range: bytes */TOTAL`) and sends only what it lacks, or
//             reads the finished video from it. A session opened but not saved never gets a byte, so never a video.
//   quota     Google's quota calculator (https://developers.google.com/youtube/v3/determine_quota_cost): videos.insert
//             has a bucket of its own, 100 calls a day (YOUTUBE_DAILY_UPLOADS), and every other method shares the
//             project's 10,000 units a day (YOUTUBE_DAILY_QUOTA_UNITS; a first comment 50). Both are kit quotas per
//             app, each workspace allowed its share (APP_QUOTA_WORKSPACE_SHARE): an upload past either waits for
//             the window to have room. The thumbnail (50) and the status reads (1 each) are left out of the count;
//             Google's own quotaExceeded waits until its reset (api.ts).
//   thumbnail a channel not allowed custom thumbnails (not verified) is refused thumbnails.set with 403 `forbidden`
//             (https://developers.google.com/youtube/v3/docs/thumbnails/set#errors) while the video is on YouTube:
//             the video is published all the same, the refusal kept as the target's warning.
//   first comment  `settings.firstComment` once the video is processed (kit/thread.ts): commentThreads.insert
//             (https://developers.google.com/youtube/v3/docs/commentThreads/insert) POST
//             /youtube/v3/commentThreads?part=snippet {snippet: {channelId, videoId, topLevelComment: {snippet:
//             {textOriginal}}}}, which needs youtube.force-ssl: channels connected before it was asked for, or whose
//             owner unticked it, get the comment refused with that reason while the video stays published (50 units,
//             left out of the quota like the thumbnail).
//   metrics   videos.list part=statistics (https://developers.google.com/youtube/v3/docs/videos/list).
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishMedia, PublishOutcome, PublishRequest, PublishedItem } from '../adapter.ts';
import { apiOptions, linkOf, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import { uploadResumable } from '../kit/resumable.ts';
import { mediaOfSetting } from '../kit/settingsMedia.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment } from '../kit/thread.ts';
import { fileBody } from '../kit/upload.ts';
import { YouTubeApi } from './api.ts';
import { youtubeProfile } from './channel.ts';
import { commentItem, requireCommentScope, type YouTubeCommentThread, type YouTubeListPage } from './comments.ts';
import { youtubeQuotas, type YouTubeQuotaOptions } from './quotas.ts';
import { youtubeRules } from './network.ts';

export interface YouTubeAdapterOptions extends OAuthAdapterOptions, YouTubeQuotaOptions {
  /** When the worker should look again at a video YouTube is processing. */
  processingCheckAfterMs?: number;
  /** Bytes per chunk of the resumable upload (a multiple of 256 KiB). */
  chunkBytes?: number;
}

interface YouTubeSettings {
  title?: string;
  privacy: string;
  tags: string[];
  madeForKids: boolean;
  categoryId?: string;
}

interface VideoState {
  status?: { uploadStatus?: string; failureReason?: string; rejectionReason?: string };
  processingDetails?: { processingStatus?: string };
}

export class YouTubeAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: YouTubeApi;
  readonly #processingCheckAfterMs: number;
  readonly #chunkBytes: number | undefined;

  constructor(options: YouTubeAdapterOptions) {
    const api = new YouTubeApi(apiOptions(options));
    super({ rules: youtubeRules, duplicates: 'look-up', quotas: youtubeQuotas(options) }, linkOf(youtubeProfile(api), options));
    this.#api = api;
    this.#processingCheckAfterMs = options.processingCheckAfterMs ?? 5000;
    this.#chunkBytes = options.chunkBytes;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { accessToken } = tokensOf(request.account);
    const { signal } = request;
    const video = request.media.find((media) => media.kind === 'video');
    if (!video) throw new ProviderError('PROVIDER_REJECTED', 'A YouTube post needs a video.', false);
    const thumbnail = mediaOfSetting(request, 'thumbnailMediaId', 'image');
    const steps = new Steps(request.checkpoint);
    // Re-sent where an attempt stopped before saving it: a session that never got a byte makes no video.
    const sessionUrl = await steps.once('session', () => this.#openSession(request, video, accessToken));
    const id = await steps.once('upload', async () => {
      const uploaded = await uploadResumable<{ id?: string }>({
        http: this.#api.uploads,
        sessionUrl,
        media: video,
        accessToken,
        signal,
        chunkBytes: this.#chunkBytes,
      });
      if (!uploaded.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'YouTube took the video without naming it.', true);
      return uploaded.id;
    });
    // Setting it again replaces it: a re-sent step does no harm. Refused for good, the video goes out without it.
    const thumbnailRefusal = thumbnail ? await steps.once('thumbnail', () => this.#setThumbnail(id, thumbnail, accessToken, signal)) : null;
    if (!steps.result('processed')) {
      if (!(await this.#processed(id, accessToken, signal))) return { status: 'processing', handle: id, checkAfterMs: this.#processingCheckAfterMs };
      await steps.record('processed', true);
    }
    const page = request.placement === 'short' ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`;
    const firstComment = await postFirstComment(
      steps,
      request.firstComment,
      (text) => this.#comment(request.account, id, text, signal),
      (text) => this.#earlierComment(request.account, id, text, signal),
    );
    const warning = thumbnailRefusal && {
      code: thumbnailRefusal.code,
      message: `YouTube published the video without its thumbnail: ${thumbnailRefusal.message}`,
    };
    return { status: 'published', item: { remoteId: id, remoteUrl: page, ...(firstComment ? { firstComment } : {}), ...(warning ? { warning } : {}) } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const { body } = await this.#api.send<{ items?: { statistics?: Record<string, string | undefined> }[] }>({
      method: 'GET',
      path: `/youtube/v3/videos?part=statistics&id=${encodeURIComponent(remoteId)}`,
      accessToken: tokensOf(account).accessToken,
    });
    const statistics = body.items?.[0]?.statistics ?? {};
    const count = (name: string) => (statistics[name] === undefined ? undefined : Number(statistics[name]));
    return { videoViews: count('viewCount'), likes: count('likeCount'), comments: count('commentCount') };
  }

  async #openSession(request: PublishRequest, video: PublishMedia, accessToken: string): Promise<string> {
    const settings = request.settings as unknown as YouTubeSettings;
    const resource = {
      snippet: {
        title: settings.title ?? titleOf(request.caption),
        description: request.caption,
        tags: settings.tags,
        ...(settings.categoryId ? { categoryId: settings.categoryId } : {}),
      },
      status: { privacyStatus: settings.privacy, selfDeclaredMadeForKids: settings.madeForKids },
    };
    const { headers } = await this.#api.send({
      method: 'POST',
      path: '/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status',
      accessToken,
      headers: { 'x-upload-content-length': String(video.size), 'x-upload-content-type': video.mimeType },
      body: { json: resource },
      signal: request.signal,
    });
    return this.#api.sessionUrl(headers.location);
  }

  /** A top-level comment by the channel on its video; the watch page opened at it (`lc`). */
  async #comment(account: ConnectedAccount, videoId: string, text: string, signal: AbortSignal): Promise<PublishedItem> {
    const tokens = requireCommentScope(tokensOf(account));
    const { body } = await this.#api.send<{ id?: string; snippet?: { topLevelComment?: { id?: string } } }>({
      method: 'POST',
      path: '/youtube/v3/commentThreads?part=snippet',
      accessToken: tokens.accessToken,
      body: { json: { snippet: { channelId: account.remoteId, videoId, topLevelComment: { snippet: { textOriginal: text } } } } },
      signal,
    });
    const commentId = body.snippet?.topLevelComment?.id ?? body.id;
    if (!commentId) throw new ProviderError('PROVIDER_UNAVAILABLE', 'YouTube took the comment without naming it.', false);
    return commentItem(videoId, commentId);
  }

  /** The comment an interrupted attempt made on the video, among its latest (commentThreads.list): the channel's, with the same text. */
  async #earlierComment(account: ConnectedAccount, videoId: string, text: string, signal: AbortSignal): Promise<PublishedItem | null> {
    const { body } = await this.#api.send<YouTubeListPage<YouTubeCommentThread>>({
      method: 'GET',
      path: `/youtube/v3/commentThreads?part=snippet&videoId=${encodeURIComponent(videoId)}&maxResults=50`,
      accessToken: tokensOf(account).accessToken,
      signal,
    });
    const found = (body.items ?? [])
      .map((thread) => thread.snippet?.topLevelComment)
      .find((comment) => comment?.snippet?.authorChannelId?.value === account.remoteId && comment.snippet?.textOriginal === text);
    return found?.id ? commentItem(videoId, found.id) : null;
  }

  /** Null once set; YouTube's refusal where it will not take it (a channel without custom thumbnails, an image it refuses). */
  async #setThumbnail(videoId: string, image: PublishMedia, accessToken: string, signal: AbortSignal): Promise<{ code: string; message: string } | null> {
    try {
      await this.#api.send({
        method: 'POST',
        path: `/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`,
        accessToken,
        body: fileBody(image),
        signal,
      });
      return null;
    } catch (error) {
      if (!(error instanceof ProviderError) || error.transient || error.tokenRejected || error.retryAfterMs !== undefined) throw error;
      return { code: error.code, message: error.message };
    }
  }

  /** Whether YouTube has processed the video; a refusal when it failed or rejected it. */
  async #processed(videoId: string, accessToken: string, signal: AbortSignal): Promise<boolean> {
    const { body } = await this.#api.send<{ items?: VideoState[] }>({
      method: 'GET',
      path: `/youtube/v3/videos?part=status,processingDetails&id=${encodeURIComponent(videoId)}`,
      accessToken,
      signal,
    });
    const state = body.items?.[0];
    if (!state) throw new ProviderError('PROVIDER_REJECTED', 'YouTube: the uploaded video is gone (deleted at YouTube).', false);
    const { uploadStatus, failureReason, rejectionReason } = state.status ?? {};
    if (uploadStatus === 'failed' || uploadStatus === 'rejected' || uploadStatus === 'deleted')
      throw new ProviderError(
        'PROVIDER_REJECTED',
        `YouTube did not take the video (${uploadStatus}: ${failureReason ?? rejectionReason ?? 'no reason given'}).`,
        false,
      );
    return uploadStatus === 'processed' || state.processingDetails?.processingStatus === 'succeeded';
  }
}

/** The caption's first line, at most 100 characters: YouTube's longest title. */
function titleOf(caption: string): string {
  const title = [...(caption.split('\n')[0] ?? '').trim()].slice(0, 100).join('').trim();
  if (!title) throw new ProviderError('PROVIDER_REJECTED', 'YouTube needs a title: set `title` or start the caption with one.', false);
  return title;
}

export function createYouTubeAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): YouTubeAdapter {
  return new YouTubeAdapter({
    app,
    redirectUri,
    timeoutMs: config.networkTimeoutMs,
    allowedHosts,
    dailyQuotaUnits: config.youtubeDailyQuotaUnits,
    dailyUploads: config.youtubeDailyUploads,
    workspaceShare: config.appQuotaWorkspaceShare,
  });
}
