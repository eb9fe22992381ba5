// Pinterest (API v5): pins on one of the account's boards (setting `boardId`). Connecting: accounts.ts; calls: api.ts.
//   Pins  https://developers.pinterest.com/docs/api/v5/pins-create
//     POST /v5/pins {board_id, title, description (the caption), link, alt_text, media_source}: `image_url` {url}
//     for one image, `multiple_image_urls` {items: [{url, link}]} for 2 to 5 (a carousel pin), `video_id`
//     {media_id, cover_image_url | cover_image_key_frame_time}. Pinterest fetches image and cover URLs itself:
//     they are this service's signed URLs. The pin's page is https://www.pinterest.com/pin/<id>/.
//   Video  https://developers.pinterest.com/docs/api/v5/media-create, /media-get,
//     https://developers.pinterest.com/docs/api-features/creating-boards-and-pins/
//     POST /v5/media {media_type: video} -> {media_id, upload_url, upload_parameters}; a multipart POST to upload_url
//     with every parameter before the file (S3 reads no field after it); GET /v5/media/{id} until `succeeded`
//     (`failed`: refused). Each is a checkpoint step; while Pinterest processes, the target waits (`processing`)
//     and the status check resumes the publish here.
//   No duplicates  Pinterest takes no idempotency key: a pin step an earlier attempt started and did not see
//     answered is looked up among the board's latest pins (GET /v5/boards/{id}/pins: the same title, description
//     and link) before creating the pin again. A re-sent registration or upload only leaves an unused upload behind.
//   Metrics  https://developers.pinterest.com/docs/api/v5/pins-analytics (the last 90 days, Pinterest's limit)
//   Options  the settings form's boards: GET /v5/boards, page by page (`bookmark`, up to 250 a page)
//     https://developers.pinterest.com/docs/api/v5/boards-list
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type {
  ConnectedAccount,
  ItemMetrics,
  ProviderAdapter,
  PublishMedia,
  PublishOutcome,
  PublishRequest,
  SettingChoice,
  SettingOptions,
} from '../adapter.ts';
import { apiOptions, linkOf, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import { mediaOfSetting } from '../kit/settingsMedia.ts';
import { Steps } from '../kit/steps.ts';
import { multipartFileBody } from '../kit/upload.ts';
import { PinterestApi } from './api.ts';
import { pinterestProfile } from './accounts.ts';
import { pinterestRules } from './network.ts';

export interface PinterestAdapterOptions extends OAuthAdapterOptions {
  /** When the worker should look again at a video Pinterest is processing. */
  videoCheckAfterMs?: number;
}

interface PinSettings {
  boardId?: string;
  title?: string;
  link?: string;
}

interface Pin {
  id?: string;
  title?: string | null;
  description?: string | null;
  link?: string | null;
}

interface RegisteredVideo {
  mediaId: string;
  uploadUrl: string;
  parameters: Record<string, string>;
}

type MediaSource = Record<string, unknown>;

/** Pinterest's largest page of boards, and how many pages are read at most (10,000 boards: a bookmark that never ends stops there). */
const boardsPerPage = 250;
const boardPagesRead = 40;

/** The cover Pinterest takes without a `coverMediaId`: the frame a second in (the first is often black; videos are ≥ 4 s). */
const keyFrameSeconds = 1;

export class PinterestAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: PinterestApi;
  readonly #videoCheckAfterMs: number;

  constructor(options: PinterestAdapterOptions) {
    const api = new PinterestApi(apiOptions(options));
    // Pinterest offers apps no token revocation (its profile names none): disconnecting forgets the tokens here only.
    super({ rules: pinterestRules, duplicates: 'look-up' }, linkOf(pinterestProfile(api, options.app), options));
    this.#api = api;
    this.#videoCheckAfterMs = options.videoCheckAfterMs ?? 5000;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { boardId, title, link } = request.settings as PinSettings;
    if (!boardId) throw new ProviderError('PROVIDER_REJECTED', 'Pinterest needs the board to pin to (setting boardId).', false);
    const accessToken = tokensOf(request.account).accessToken;
    const steps = new Steps(request.checkpoint);
    const video = request.media.find((media) => media.kind === 'video');
    const mediaSource = video ? await this.#videoSource(steps, request, video, accessToken) : imageSource(request.media, link);
    if (!mediaSource) return { status: 'processing', handle: 'video', checkAfterMs: this.#videoCheckAfterMs };
    const single = !video && request.media.length === 1 ? request.media[0] : undefined;
    const pin = {
      board_id: boardId,
      ...(title ? { title } : {}),
      ...(request.caption ? { description: request.caption } : {}),
      ...(link ? { link } : {}),
      ...(single?.altText ? { alt_text: single.altText } : {}),
      media_source: mediaSource,
    };
    const call = { accessToken, signal: request.signal };
    const id = await steps.once('pin', async () => idOf((await this.#api.send<Pin>({ ...call, method: 'POST', path: '/pins', body: { json: pin } })).body), {
      ifInterrupted: () => this.#earlierPin(call, pin),
    });
    return { status: 'published', item: { remoteId: id, remoteUrl: `https://www.pinterest.com/pin/${id}/` } };
  }

  /** The account's boards, by name, for `boardId`. */
  async settingOptions(account: ConnectedAccount, signal: AbortSignal): Promise<SettingOptions> {
    const accessToken = tokensOf(account).accessToken;
    const boards: SettingChoice[] = [];
    let bookmark: string | null | undefined;
    for (let page = 0; page < boardPagesRead; page++) {
      const query = new URLSearchParams({ page_size: String(boardsPerPage), ...(bookmark ? { bookmark } : {}) });
      const { body } = await this.#api.send<{ items?: { id?: string; name?: string }[]; bookmark?: string | null }>({
        method: 'GET',
        path: `/boards?${query}`,
        accessToken,
        signal,
      });
      for (const board of body.items ?? []) if (board.id) boards.push({ value: board.id, label: board.name || board.id });
      bookmark = body.bookmark;
      if (!bookmark) break;
    }
    return { boardId: { choices: boards } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({
      start_date: day(89),
      end_date: day(0),
      metric_types: 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK,VIDEO_MRC_VIEW',
    });
    const { body } = await this.#api.send<{ all?: { summary_metrics?: Record<string, number | undefined> } }>({
      method: 'GET',
      path: `/pins/${encodeURIComponent(remoteId)}/analytics?${query}`,
      accessToken: tokensOf(account).accessToken,
    });
    const totals = body.all?.summary_metrics ?? {};
    const clicks = (totals.PIN_CLICK ?? 0) + (totals.OUTBOUND_CLICK ?? 0);
    return { impressions: totals.IMPRESSION, saves: totals.SAVE, clicks, videoViews: totals.VIDEO_MRC_VIEW };
  }

  /** The video's source once Pinterest has processed it, or null while it still does. */
  async #videoSource(steps: Steps, request: PublishRequest, video: PublishMedia, accessToken: string): Promise<MediaSource | null> {
    const call = { accessToken, signal: request.signal };
    const registered = await steps.once('video:register', async (): Promise<RegisteredVideo> => {
      const { body } = await this.#api.send<{ media_id?: string; upload_url?: string; upload_parameters?: Record<string, string> }>({
        ...call,
        method: 'POST',
        path: '/media',
        body: { json: { media_type: 'video' } },
      });
      if (!body.media_id || !body.upload_url)
        throw new ProviderError('PROVIDER_UNAVAILABLE', 'Pinterest registered the video without its media id or upload URL.', true);
      return { mediaId: body.media_id, uploadUrl: body.upload_url, parameters: body.upload_parameters ?? {} };
    });
    await steps.once('video:upload', () =>
      this.#api.upload(registered.uploadUrl, {
        body: multipartFileBody(registered.parameters, { field: 'file', filename: video.id, media: video }),
        signal: request.signal,
      }),
    );
    if (!steps.result('video:ready')) {
      const { body } = await this.#api.send<{ status?: string }>({ ...call, method: 'GET', path: `/media/${encodeURIComponent(registered.mediaId)}` });
      if (body.status === 'failed') throw new ProviderError('PROVIDER_REJECTED', 'Pinterest could not process the video.', false);
      if (body.status !== 'succeeded') return null;
      await steps.record('video:ready', true);
    }
    const cover = mediaOfSetting(request, 'coverMediaId', 'image');
    return {
      source_type: 'video_id',
      media_id: registered.mediaId,
      ...(cover ? { cover_image_url: cover.url } : { cover_image_key_frame_time: keyFrameSeconds }),
    };
  }

  /** The pin an interrupted attempt created, among the board's latest: the same title, description and link. */
  async #earlierPin(call: { accessToken: string; signal: AbortSignal }, pin: Pin & { board_id: string }): Promise<string | null> {
    const { body } = await this.#api.send<{ items?: Pin[] }>({
      ...call,
      method: 'GET',
      path: `/boards/${encodeURIComponent(pin.board_id)}/pins?page_size=25`,
    });
    const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '') === (b ?? '');
    const found = (body.items ?? []).find(
      (candidate) => same(candidate.title, pin.title) && same(candidate.description, pin.description) && same(candidate.link, pin.link),
    );
    return found?.id ?? null;
  }
}

/** One image, or several as a carousel pin, each leading where the pin does. */
function imageSource(images: readonly PublishMedia[], link: string | undefined): MediaSource {
  if (images.length === 1) return { source_type: 'image_url', url: images[0]!.url };
  return { source_type: 'multiple_image_urls', items: images.map((image) => ({ url: image.url, ...(link ? { link } : {}) })) };
}

function idOf(pin: Pin): string {
  if (!pin.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Pinterest created the pin without naming it.', false);
  return pin.id;
}

export function createPinterestAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): PinterestAdapter {
  return new PinterestAdapter({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts });
}
