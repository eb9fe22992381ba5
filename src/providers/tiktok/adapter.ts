// TikTok: a creator (accounts.ts) posting through the Content Posting API's Direct Post
// (https://developers.tiktok.com/doc/content-posting-api-get-started).
//   publish   creator_info first (creator.ts: the privacy levels and switches the creator allows, the longest
//             video it may post), then
//             a video  POST /v2/post/publish/video/init/ {post_info, source_info}
//                      (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post): FILE_UPLOAD
//                      with the chunk plan, the chunks PUT to `upload_url` (media.ts); or PULL_FROM_URL from the
//                      service's signed URL where the operator verified its domain at TikTok (TIKTOK_PULL_FROM_URL)
//             photos   POST /v2/post/publish/content/init/ {media_type: PHOTO, post_mode: DIRECT_POST, post_info
//                      {title, description, ...}, source_info {PULL_FROM_URL, photo_images}}
//                      (https://developers.tiktok.com/doc/content-posting-api-reference-photo-post)
//             then POST /v2/post/publish/status/fetch/ until PUBLISH_COMPLETE
//             (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status): meanwhile the target
//             waits (`processing`) and the status check resumes the publish, which asks again; FAILED is a refusal
//             with TikTok's `fail_reason`. The post's id (`publicaly_available_post_id`, an int64 beyond 2^53) is
//             read as digits (api.ts) and kept as a string; a public post gets it after moderation, a private one
//             (SELF_ONLY) may never: it is then known by its publish_id, its page the creator's profile.
//   no duplicates  (`look-up`) the init's publish_id is a checkpoint step, so a re-attempt asks its status instead
//             of making another post, and each chunk is a step. An upload init interrupted before its answer was
//             saved is sent again (a publish whose upload never arrives never posts); a pull init cannot be, as
//             TikTok fetches the media by itself: the target then fails, saying to look at the profile.
//   quotas    6 inits a minute per token (the Direct Post reference), counted over a sliding minute
//             (https://developers.tiktok.com/doc/tiktok-api-v2-rate-limit), and the creator's daily cap of API posts
//             (TIKTOK_POSTS_PER_DAY, 15 by default: TikTok does not publish it), as kit quotas per account (kit
//             quotas count moving windows).
//   options   the settings form's privacy levels and switches: creator_info read for the account (settingOptions)
//   metrics   the Display API's /v2/video/query/ needs video.list, which this app does not ask for: none read.
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishMedia, PublishOutcome, PublishRequest, SettingOptions } from '../adapter.ts';
import { apiOptions, linkOf, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { TikTokApi } from './api.ts';
import { tiktokProfile } from './accounts.ts';
import { checkVideoDuration, creatorInfo, creatorSettingOptions, interactionsFor, type TikTokSettings } from './creator.ts';
import { chunkPlan, uploadChunks } from './media.ts';
import { tiktokRules } from './network.ts';

export interface TikTokAdapterOptions extends OAuthAdapterOptions {
  /** TIKTOK_INITS_PER_MINUTE */
  initsPerMinute: number;
  /** TIKTOK_POSTS_PER_DAY */
  postsPerDay: number;
  /** TIKTOK_PULL_FROM_URL: TikTok fetches videos from the signed URLs (their domain verified for the app). */
  pullFromUrl: boolean;
  /** When the worker should ask again about a post TikTok is processing (status/fetch allows 30 a minute per token). */
  processingCheckAfterMs?: number;
}

/** What the init step keeps: the publish, where its bytes go, and who may see it (a private post may get no id). */
interface Initialized {
  publishId: string;
  uploadUrl?: string;
  privacyLevel: string;
  username: string;
}

interface PublishStatus {
  status?: string;
  fail_reason?: string;
  publicaly_available_post_id?: (string | number)[];
}

const tiktokQuotas = ({ initsPerMinute, postsPerDay }: Pick<TikTokAdapterOptions, 'initsPerMinute' | 'postsPerDay'>): Quota[] => [
  { name: 'TikTok post initializations a minute (TIKTOK_INITS_PER_MINUTE)', scope: 'account', windowSeconds: 60, limit: initsPerMinute, costPerPublish: 1 },
  { name: 'TikTok posts per day (TIKTOK_POSTS_PER_DAY)', scope: 'account', windowSeconds: 24 * 3600, limit: postsPerDay, costPerPublish: 1 },
];

export class TikTokAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: TikTokApi;
  readonly #pullFromUrl: boolean;
  readonly #processingCheckAfterMs: number;

  constructor(options: TikTokAdapterOptions) {
    const api = new TikTokApi(apiOptions(options));
    super({ rules: tiktokRules, duplicates: 'look-up', quotas: tiktokQuotas(options) }, linkOf(tiktokProfile(api), options));
    this.#api = api;
    this.#pullFromUrl = options.pullFromUrl;
    this.#processingCheckAfterMs = options.processingCheckAfterMs ?? 15_000;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { accessToken } = tokensOf(request.account);
    const steps = new Steps(request.checkpoint);
    const video = request.placement === 'video' ? request.media.find((media) => media.kind === 'video') : undefined;
    if (request.placement === 'video' && !video) throw new ProviderError('PROVIDER_REJECTED', 'A TikTok video post needs a video.', false);
    const pulled = !video || this.#pullFromUrl;
    const initialized = await steps.once('init', () => this.#initialize(request, accessToken, video), {
      // TikTok may be fetching the media of a publish whose answer was lost: sending it again could post twice.
      ifInterrupted: pulled
        ? async () => {
            throw new ProviderError(
              'PROVIDER_REJECTED',
              'An earlier attempt may have posted to TikTok, and TikTok cannot be asked about it. Look at the profile and publish again if the post is not there.',
              false,
            );
          }
        : undefined,
    });
    if (video && initialized.uploadUrl) await uploadChunks(steps, this.#api, initialized.uploadUrl, video, request.signal);
    return this.#outcome(initialized, request.placement, accessToken, request.signal);
  }

  /** The privacy levels and switches the creator allows now (creator_info, as before each post). */
  async settingOptions(account: ConnectedAccount, signal: AbortSignal): Promise<SettingOptions> {
    return creatorSettingOptions(await creatorInfo(this.#api, tokensOf(account).accessToken, signal));
  }

  /** The Display API's video query needs the video.list scope, which this app does not ask for. */
  async metrics(): Promise<ItemMetrics> {
    return {};
  }

  async #initialize(request: PublishRequest, accessToken: string, video: PublishMedia | undefined): Promise<Initialized> {
    const settings = request.settings as unknown as TikTokSettings;
    const creator = await creatorInfo(this.#api, accessToken, request.signal);
    const interactions = interactionsFor(creator, settings);
    if (video) checkVideoDuration(creator, video.durationMs);
    const username = creator.creator_username || request.account.username;
    if (!video) {
      const { disable_duet: _duet, disable_stitch: _stitch, ...photoInteractions } = interactions;
      const { publish_id } = await this.#api.call<{ publish_id?: string }>(
        '/v2/post/publish/content/init/',
        accessToken,
        {
          media_type: 'PHOTO',
          post_mode: 'DIRECT_POST',
          post_info: { title: settings.title ?? photoTitleOf(request.caption), description: request.caption, ...photoInteractions },
          source_info: { source: 'PULL_FROM_URL', photo_images: request.media.map((media) => media.url), photo_cover_index: 0 },
        },
        request.signal,
      );
      return { publishId: publishIdOf(publish_id), privacyLevel: interactions.privacy_level, username };
    }
    const source = this.#pullFromUrl
      ? { source: 'PULL_FROM_URL', video_url: video.url }
      : { source: 'FILE_UPLOAD', video_size: video.size, ...chunkPlan(video.size) };
    const data = await this.#api.call<{ publish_id?: string; upload_url?: string }>(
      '/v2/post/publish/video/init/',
      accessToken,
      { post_info: { title: request.caption, ...interactions }, source_info: source },
      request.signal,
    );
    if (!this.#pullFromUrl && !data.upload_url) throw new ProviderError('PROVIDER_UNAVAILABLE', 'TikTok gave no upload URL for the video.', true);
    return { publishId: publishIdOf(data.publish_id), uploadUrl: data.upload_url, privacyLevel: interactions.privacy_level, username };
  }

  async #outcome(initialized: Initialized, placement: string, accessToken: string, signal: AbortSignal): Promise<PublishOutcome> {
    const state = await this.#api.callPrecise<PublishStatus>('/v2/post/publish/status/fetch/', accessToken, { publish_id: initialized.publishId }, signal);
    if (state.status === 'FAILED')
      throw new ProviderError('PROVIDER_REJECTED', `TikTok did not publish the post (${state.fail_reason || 'no reason given'}).`, false);
    const processing = { status: 'processing', handle: initialized.publishId, checkAfterMs: this.#processingCheckAfterMs } as const;
    if (state.status !== 'PUBLISH_COMPLETE') return processing;
    const postId = state.publicaly_available_post_id?.[0];
    const profile = `https://www.tiktok.com/@${initialized.username}`;
    if (postId !== undefined) {
      const id = String(postId);
      return { status: 'published', item: { remoteId: id, remoteUrl: `${profile}/${placement === 'photo' ? 'photo' : 'video'}/${id}` } };
    }
    // A public post is given its id once moderated; a private one may never be.
    if (initialized.privacyLevel !== 'SELF_ONLY') return processing;
    return { status: 'published', item: { remoteId: initialized.publishId, remoteUrl: profile } };
  }
}

function publishIdOf(value: unknown): string {
  if (typeof value === 'string' && value) return value;
  throw new ProviderError('PROVIDER_UNAVAILABLE', 'TikTok accepted the post without naming it (publish_id).', true);
}

/** The caption's first line, at most 90 characters: a photo post's longest title. */
function photoTitleOf(caption: string): string {
  return [...(caption.split('\n')[0] ?? '').trim()].slice(0, 90).join('').trim();
}

export function createTikTokAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): TikTokAdapter {
  return new TikTokAdapter({
    app,
    redirectUri,
    timeoutMs: config.networkTimeoutMs,
    allowedHosts,
    initsPerMinute: config.tiktokInitsPerMinute,
    postsPerDay: config.tiktokPostsPerDay,
    pullFromUrl: config.tiktokPullFromUrl,
  });
}
