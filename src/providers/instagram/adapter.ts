// Instagram professional accounts, of either kind (login.ts): through the Instagram API with Facebook Login
// (graph.facebook.com), connected by the Facebook Login of their Page (../meta/login.ts) and called with the Page's
// token, or through the Instagram API with Instagram Login (graph.instagram.com), connected by Business Login for
// Instagram and called with the account's own token. Both publish the same way, at their own host: the same
// containers, edges and parameters (Instagram Login's "Content publishing" and IG User references,
// https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/content-publishing, name
// the same /<IG_ID>/media, /media_publish and /comments at graph.instagram.com):
//   Content publishing  https://developers.facebook.com/docs/instagram-platform/content-publishing
//   IG User media  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//     (image_url (JPEG only: the media library's JPEG rendition of a PNG/WebP, src/media/renditions.ts) + alt_text, media_type REELS + video_url + share_to_feed, STORIES, carousels of 2–10
//     `is_carousel_item` children then CAROUSEL + children; Meta fetches each URL itself: the signed PublishMedia.url)
//   IG User media_publish  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media_publish
//   IG Media  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media (permalink)
//   IG Media comments  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
//     (POST /{ig-media-id}/comments `message`, instagram_manage_comments: `settings.firstComment`, kit/thread.ts)
//   IG Media insights  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/insights
//   content_publishing_limit  https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/content_publishing_limit
//     (100 API-published posts per 24 hours: kept as a quota, so a target waits rather than fails)
// Containers are polled until FINISHED and never published before (../meta/containers.ts). No duplicates: the publish
// step is sent once per container; an interrupted one is looked up (the container PUBLISHED, then the account's
// newest media with the same caption).
import type { GivenApp } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishMedia, PublishOutcome, PublishRequest } from '../adapter.ts';
import { MetaAdapter } from '../meta/adapter.ts';
import { tokensOf, type OAuthLink } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment } from '../kit/thread.ts';
import { containerCheckAfterMs, containerFlow, finishedContainer, finishedContainers, publishedContainer } from '../meta/containers.ts';
import { commentBy, Graph, insightsOf } from '../meta/graph.ts';
import { graphAt, metaParts, type GraphSettings } from '../meta/login.ts';
import { oauthLink } from '../kit/oauthLink.ts';
import { connectionOf, instagramLink, instagramLogin, type InstagramConnection, type InstagramLinks } from './login.ts';
import { instagramRules } from './network.ts';

export const instagramQuotas: readonly Quota[] = [
  { name: 'Instagram: 100 API-published posts per 24 hours', scope: 'account', windowSeconds: 86_400, limit: 100, costPerPublish: 1 },
];

type Params = Record<string, string | undefined>;

/** The Graph of each way of connecting the operator set up: graph.facebook.com, graph.instagram.com. */
export type InstagramGraphs = Partial<Record<InstagramConnection, Graph>>;

/** The host of the account's kind; a kind whose app the operator no longer sets cannot be reached. */
export function graphOf(graphs: InstagramGraphs, account: ConnectedAccount): Graph {
  const connection = connectionOf(account);
  const graph = graphs[connection];
  if (!graph) throw new ProviderError('PROVIDER_REJECTED', `Instagram accounts connected with ${connection} are not configured on this installation.`, false);
  return graph;
}

export class InstagramAdapter extends MetaAdapter implements ProviderAdapter {
  readonly #graphs: InstagramGraphs;

  constructor(graphs: InstagramGraphs, link: OAuthLink) {
    super({ rules: instagramRules, duplicates: 'look-up', quotas: instagramQuotas }, (graphs.facebook_login ?? graphs.instagram_login)!, link);
    this.#graphs = graphs;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { account, caption, media, signal } = request;
    const { id: user, token } = this.idAndToken(account);
    const graph = graphOf(this.#graphs, account);
    if (!media.length) throw new ProviderError('PROVIDER_REJECTED', 'Instagram cannot post a caption without an image or a video.', false);
    const steps = new Steps(request.checkpoint);
    const flow = containerFlow('Instagram', { graph, token, signal }, { status: 'status_code', reason: 'status' });
    const create = (params: Params) => async () => (await graph.post<{ id: string }>(`/${user}/media`, token, params, signal)).id;
    const shareToFeed = String((request.settings as { shareToFeed?: boolean }).shareToFeed ?? true);
    let container: string | null;
    if (media.length > 1) {
      const children = await finishedContainers(
        steps,
        flow,
        media.map((item, index) => ({ name: `item:${index}`, create: create({ is_carousel_item: 'true', ...itemParams(item) }) })),
      );
      container = children && (await finishedContainer(steps, flow, 'container', create({ media_type: 'CAROUSEL', children: children.join(','), caption })));
    } else {
      const only = media[0]!;
      const params: Params =
        request.placement === 'story'
          ? { ...itemParams(only), media_type: 'STORIES' }
          : only.kind === 'video'
            ? // Feed videos are published as reels (media_type VIDEO is no longer taken for the feed).
              { media_type: 'REELS', video_url: only.url, share_to_feed: shareToFeed, caption }
            : { ...itemParams(only), caption };
      container = await finishedContainer(steps, flow, 'container', create(params));
    }
    if (!container) return { status: 'processing', handle: 'container', checkAfterMs: containerCheckAfterMs };
    const item = await publishedContainer(steps, flow, container, {
      graph,
      user,
      token,
      signal,
      publishEdge: 'media_publish',
      postsEdge: 'media',
      textField: 'caption',
      text: caption,
    });
    // Comments have no page of their own at Instagram: the post's is the comment's link.
    const firstComment = await postFirstComment(
      steps,
      request.firstComment,
      async (message) => ({
        remoteId: (await graph.post<{ id: string }>(`/${item.remoteId}/comments`, token, { message }, signal)).id,
        remoteUrl: item.remoteUrl,
      }),
      async (message) => {
        const id = await commentBy(graph, item.remoteId, { author: user, textField: 'text', text: message }, token, signal);
        return id ? { remoteId: id, remoteUrl: item.remoteUrl } : null;
      },
    );
    return { status: 'published', item: { ...item, ...(firstComment ? { firstComment } : {}) } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const values = await insightsOf(graphOf(this.#graphs, account), remoteId, tokensOf(account).accessToken, 'reach,likes,comments,shares,saved,views');
    return { reach: values.reach, likes: values.likes, comments: values.comments, shares: values.shares, saves: values.saved, videoViews: values.views };
  }
}

/** An image (as JPEG, with its alt text) or a video item of a container. */
const itemParams = (item: PublishMedia): Params =>
  item.kind === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { image_url: item.jpegUrl, alt_text: item.altText ?? undefined };

/** The operator's app of each way of connecting, or the settings that would give it. */
export type InstagramApps = Record<InstagramConnection, GivenApp | { missingSettings: readonly string[] }>;

export interface InstagramDependencies {
  apps: InstagramApps;
  redirectUri: string;
  config: GraphSettings;
}

export const isGiven = (app: InstagramApps[InstagramConnection]): app is GivenApp => !('missingSettings' in app);

/** Instagram where the operator set up either way of connecting (Facebook's app, Instagram's); null where neither. */
export function createInstagramAdapter({ apps, redirectUri, config }: InstagramDependencies): InstagramAdapter | null {
  const graphs: InstagramGraphs = {};
  const links = {} as InstagramLinks;
  const facebook = apps.facebook_login;
  if (isGiven(facebook)) {
    const parts = metaParts({ app: facebook, redirectUri, config }, 'Instagram');
    graphs.facebook_login = parts.graph;
    links.facebook_login = parts.link;
  } else links.facebook_login = facebook;
  const instagram = apps.instagram_login;
  if (isGiven(instagram)) {
    const graph = graphAt(instagram, config, 'Instagram');
    graphs.instagram_login = graph;
    const tokens = new Graph({ baseUrl: instagram.apiBaseUrl, network: 'Instagram', timeoutMs: config.networkTimeoutMs });
    links.instagram_login = oauthLink(instagramLogin(tokens, graph), instagram, {
      redirectUri,
      timeoutMs: config.networkTimeoutMs,
      fetch: graph.fetch,
    });
  } else links.instagram_login = instagram;
  if (!graphs.facebook_login && !graphs.instagram_login) return null;
  return new InstagramAdapter(graphs, instagramLink(links));
}
