// Facebook Pages through the Pages API, connected by Facebook Login (../meta/login.ts), posting with each Page's token:
//   Page feed  https://developers.facebook.com/docs/graph-api/reference/page/feed (message, link, attached_media)
//   Page photos  https://developers.facebook.com/docs/graph-api/reference/page/photos (url fetched by Meta,
//     alt_text_custom, published=false for the photos of a several-photo post)
//   Page videos  https://developers.facebook.com/docs/video-api/guides/publishing (file_url fetched by Meta;
//     GET /{video-id}?fields=status until `video_status` is ready)
//   Reels Publishing API  https://developers.facebook.com/docs/video-api/guides/reels-publishing (./reels.ts)
//     (30 API-published reels per Page in a moving 24 hours, enforced when a reel is published: kept as a quota
//     of the `reel` placement, so a 31st reel waits rather than fails)
//   Page post insights  https://developers.facebook.com/docs/graph-api/reference/insights (post_impressions and
//     post_impressions_unique are refused for every version since 2025, "invalid metric" failing the whole call:
//     post_media_view and post_total_media_view_unique replace them,
//     https://developers.facebook.com/documentation/pages-api/platforminsights/page/deprecated-metrics)
//   Comments  https://developers.facebook.com/docs/graph-api/reference/object/comments,
//     https://developers.facebook.com/documentation/pages-api/comments-mentions (POST /{post-id}/comments `message`
//     with the Page token, pages_manage_engagement: the Page is the author; `settings.firstComment`, kit/thread.ts)
// Meta fetches every file itself from the signed PublishMedia.url. No duplicates: Meta takes no idempotency key, so
// a post step an earlier attempt started without seeing its answer is looked up among the Page's latest posts
// (same message) before it is sent again; unpublished photos sent twice stay invisible.
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError, type ConnectedAccount, type ItemMetrics, type ProviderAdapter, type PublishOutcome, type PublishRequest } from '../adapter.ts';
import { MetaAdapter } from '../meta/adapter.ts';
import { tokensOf, type OAuthLink } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment } from '../kit/thread.ts';
import { commentBy, insightsOf, recentItemWith, type Graph } from '../meta/graph.ts';
import { metaParts } from '../meta/login.ts';
import { publishedReel } from './reels.ts';
import { facebookRules } from './network.ts';

const firstUrl = (text: string) => /https?:\/\/\S+/.exec(text)?.[0];
/** Video permalinks come as paths of www.facebook.com. */
const absolute = (permalink: string | undefined) => (permalink?.startsWith('/') ? `https://www.facebook.com${permalink}` : (permalink ?? ''));

const facebookQuotas: readonly Quota[] = [
  {
    name: 'Facebook: 30 API-published reels per Page per 24 hours',
    scope: 'account',
    windowSeconds: 86_400,
    limit: 30,
    costPerPublish: 1,
    placements: ['reel'],
  },
];

/** How long Meta usually takes to process a video or a reel before its status is asked again. */
const videoCheckAfterMs = 10_000;

export class FacebookAdapter extends MetaAdapter implements ProviderAdapter {
  /** `<FACEBOOK_UPLOAD_BASE_URL>/video-upload/<api-version>` */
  readonly #reelUploadUrl: string;

  constructor(graph: Graph, link: OAuthLink, reelUploadUrl: string) {
    super({ rules: facebookRules, duplicates: 'look-up', quotas: facebookQuotas }, graph, link);
    this.#reelUploadUrl = reelUploadUrl;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { account, caption, media, signal } = request;
    const { id: page, token } = this.idAndToken(account);
    const steps = new Steps(request.checkpoint);
    const post = (path: string, params: Record<string, string | undefined>) => async () =>
      this.graph.post<{ id: string; post_id?: string }>(`/${page}${path}`, token, params, signal);
    const earlier = (edge: string, field: string) => async (): Promise<{ id: string; post_id?: string } | null> => {
      const id = await recentItemWith(this.graph, `/${page}/${edge}`, token, field, caption, signal);
      return id ? { id } : null;
    };
    const video = media.find((item) => item.kind === 'video');
    let postId: string;
    if (request.placement === 'reel' && video) {
      const reel = await publishedReel(steps, { graph: this.graph, uploadUrl: this.#reelUploadUrl, page, token, signal }, video, caption);
      if (!reel) return { status: 'processing', handle: 'reel', checkAfterMs: videoCheckAfterMs };
      postId = reel;
    } else if (video) {
      const { id } = await steps.once('video', post('/videos', { file_url: video.url, description: caption }), {
        ifInterrupted: earlier('videos', 'description'),
      });
      const { status } = await this.graph.get<{ status?: { video_status?: string } }>(`/${id}`, token, { fields: 'status' }, signal);
      if (status?.video_status === 'error') throw new ProviderError('PROVIDER_REJECTED', 'Facebook could not process the video.', false);
      if (status?.video_status !== 'ready') return { status: 'processing', handle: 'video', checkAfterMs: videoCheckAfterMs };
      postId = id;
    } else if (media.length === 1) {
      const only = media[0]!;
      const photo = await steps.once('post', post('/photos', { url: only.url, message: caption, alt_text_custom: only.altText ?? undefined }), {
        ifInterrupted: earlier('feed', 'message'),
      });
      postId = photo.post_id ?? photo.id;
    } else {
      const attached: Record<string, string> = {};
      for (const [index, item] of media.entries()) {
        const photo = await steps.once(`photo:${index}`, post('/photos', { url: item.url, published: 'false', alt_text_custom: item.altText ?? undefined }));
        attached[`attached_media[${index}]`] = JSON.stringify({ media_fbid: photo.id });
      }
      const link = media.length ? undefined : firstUrl(caption);
      postId = (await steps.once('post', post('/feed', { message: caption, link, ...attached }), { ifInterrupted: earlier('feed', 'message') })).id;
    }
    const permalink = await steps.once('permalink', async () =>
      absolute((await this.graph.get<{ permalink_url?: string }>(`/${postId}`, token, { fields: 'permalink_url' }, signal)).permalink_url),
    );
    // A comment's id is `<post>_<comment>`; Facebook opens the post at it with `comment_id`.
    const commentItem = (id: string) => ({
      remoteId: id,
      remoteUrl: permalink && `${permalink}${permalink.includes('?') ? '&' : '?'}comment_id=${id.split('_').at(-1)}`,
    });
    const firstComment = await postFirstComment(
      steps,
      request.firstComment,
      async (message) => commentItem((await this.graph.post<{ id: string }>(`/${postId}/comments`, token, { message }, signal)).id),
      async (message) => {
        const id = await commentBy(this.graph, postId, { author: page, textField: 'message', text: message }, token, signal);
        return id ? commentItem(id) : null;
      },
    );
    return { status: 'published', item: { remoteId: postId, remoteUrl: permalink, ...(firstComment ? { firstComment } : {}) } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const values = await insightsOf(
      this.graph,
      remoteId,
      tokensOf(account).accessToken,
      'post_media_view,post_total_media_view_unique,post_clicks,post_reactions_like_total',
    );
    return {
      impressions: values.post_media_view,
      reach: values.post_total_media_view_unique,
      clicks: values.post_clicks,
      likes: values.post_reactions_like_total,
    };
  }
}

export function createFacebookAdapter(deps: OAuthAdapterDependencies): FacebookAdapter {
  const { graph, link } = metaParts(deps, 'Facebook');
  return new FacebookAdapter(graph, link, `${deps.app.uploadBaseUrl}/video-upload/${deps.config.metaGraphVersion}`);
}
