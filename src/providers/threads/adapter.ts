// Threads profiles through the Threads API (graph.threads.net), connected by Threads' own authorization (login.ts):
//   Threads Posts  https://developers.facebook.com/docs/threads/posts (POST /{user}/threads: media_type TEXT, IMAGE,
//     VIDEO, CAROUSEL; text, image_url, video_url, alt_text, link_attachment (text posts), reply_control; carousels
//     of 2–20 `is_carousel_item` children, then CAROUSEL + children; POST /{user}/threads_publish?creation_id=)
//   Publishing reference  https://developers.facebook.com/documentation/threads/reference/publishing
//   Troubleshooting  https://developers.facebook.com/docs/threads/troubleshooting (GET /{container}?fields=status,
//     error_message: IN_PROGRESS, FINISHED, ERROR, EXPIRED, PUBLISHED; where a publish gave no id, the container says)
//   Overview, rate limiting  https://developers.facebook.com/docs/threads/overview (250 API-published posts per
//     profile in 24 hours, a carousel one: kept as a quota, so a target waits rather than fails)
//   Insights  https://developers.facebook.com/docs/threads/insights (GET /{media}/insights?metric=views,likes,…)
// Meta fetches every file itself from the signed PublishMedia.url. Containers are polled until FINISHED and never
// published before (../meta/containers.ts). No duplicates: the publish step is sent once per container; an
// interrupted one is looked up (the container PUBLISHED, then the profile's newest thread with the same text).
import type { OAuthAdapterDependencies } from '../registry.ts';
import {
  ProviderError,
  type ConnectedAccount,
  type ItemMetrics,
  type ProviderAdapter,
  type PublishMedia,
  type PublishOutcome,
  type PublishRequest,
} from '../adapter.ts';
import { OAuthAdapter } from '../kit/oauthAdapter.ts';
import { oauthLink, tokensOf, type OAuthLink } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { finishedContainer, finishedContainers, publishedContainer, type ContainerFlow, type ContainerStatus } from '../meta/containers.ts';
import { Graph, insightsOf } from '../meta/graph.ts';
import { bearerTokenType, threadsLogin } from './login.ts';
import { threadsRules } from './rules.ts';

/** The Threads API version in every path but the token endpoints'. */
export const threadsApiVersion = 'v1.0';

type Params = Record<string, string | undefined>;

interface ThreadsSettings {
  replyControl?: string;
  linkAttachment?: string;
}

export class ThreadsAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly provider = 'threads';
  readonly duplicates = 'look-up';
  readonly rules = threadsRules;
  readonly quotas: readonly Quota[];
  readonly #graph: Graph;
  readonly #checkAfterMs: number;

  constructor(graph: Graph, link: OAuthLink, options: { postsPerDay: number; containerCheckAfterMs?: number }) {
    super(link);
    this.#graph = graph;
    this.quotas = [
      { name: 'Threads: 250 API-published posts per 24 hours', scope: 'account', windowSeconds: 86_400, limit: options.postsPerDay, costPerPublish: 1 },
    ];
    this.#checkAfterMs = options.containerCheckAfterMs ?? 5_000;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { account, caption, media, signal } = request;
    const user = account.remoteId;
    const token = tokensOf(account).accessToken;
    if (!user) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The Threads account has no user id: reconnect it.', false);
    const { replyControl, linkAttachment } = request.settings as ThreadsSettings;
    if (linkAttachment && media.length) throw new ProviderError('PROVIDER_REJECTED', 'Threads shows a link attachment only on a post without media.', false);
    const steps = new Steps(request.checkpoint);
    const flow: ContainerFlow = {
      network: 'Threads',
      statusOf: async (id) => {
        const body = await this.#graph.get<{ status?: ContainerStatus; error_message?: string }>(`/${id}`, token, { fields: 'status,error_message' }, signal);
        return { status: body.status ?? 'IN_PROGRESS', reason: body.error_message };
      },
    };
    const create = (params: Params) => async () => (await this.#graph.post<{ id: string }>(`/${user}/threads`, token, params, signal)).id;
    const post: Params = { text: caption || undefined, reply_control: replyControl };
    let container: string | null;
    if (media.length > 1) {
      const children = await finishedContainers(
        steps,
        flow,
        media.map((item, index) => ({ name: `item:${index}`, create: create({ is_carousel_item: 'true', ...itemParams(item) }) })),
      );
      container = children && (await finishedContainer(steps, flow, 'container', create({ media_type: 'CAROUSEL', children: children.join(','), ...post })));
    } else {
      const params: Params = media[0] ? { ...itemParams(media[0]), ...post } : { media_type: 'TEXT', ...post, link_attachment: linkAttachment };
      container = await finishedContainer(steps, flow, 'container', create(params));
    }
    if (!container) return { status: 'processing', handle: 'container', checkAfterMs: this.#checkAfterMs };
    const item = await publishedContainer(steps, flow, container, {
      graph: this.#graph,
      user,
      token,
      signal,
      publishEdge: 'threads_publish',
      postsEdge: 'threads',
      textField: 'text',
      text: caption,
    });
    return { status: 'published', item };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const { views, likes, replies, reposts, quotes } = await insightsOf(
      this.#graph,
      remoteId,
      tokensOf(account).accessToken,
      'views,likes,replies,reposts,quotes',
    );
    const shares = reposts === undefined && quotes === undefined ? undefined : (reposts ?? 0) + (quotes ?? 0);
    return { impressions: views, likes, comments: replies, shares };
  }
}

/** An image or a video item of a container, with its alt text (Threads takes it on both). */
const itemParams = (item: PublishMedia): Params => ({
  ...(item.kind === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { media_type: 'IMAGE', image_url: item.url }),
  alt_text: item.altText ?? undefined,
});

export function createThreadsAdapter({ app, redirectUri, config }: OAuthAdapterDependencies): ThreadsAdapter {
  const options = { baseUrl: app.apiBaseUrl, network: 'Threads', timeoutMs: config.networkTimeoutMs };
  const graph = new Graph({ ...options, version: threadsApiVersion });
  const tokens = new Graph(options);
  const profile = threadsLogin(tokens, graph);
  const fetch = bearerTokenType(graph.fetch, profile.server(app).tokenEndpoint);
  const link = oauthLink(profile, app, { redirectUri, timeoutMs: config.networkTimeoutMs, fetch });
  return new ThreadsAdapter(graph, link, { postsPerDay: config.threadsPostsPerDay });
}
