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
//   Create Replies  https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies
//     (a container with `reply_to_id`, published like a post; the publishing reference: "Required if replying to a
//     post"); a profile's replies are listed at GET /{user}/replies, its posts at GET /{user}/threads
// Meta fetches every file itself from the signed PublishMedia.url. Containers are polled until FINISHED and never
// published before (../meta/containers.ts). No duplicates: the publish step is sent once per container; an
// interrupted one is looked up (the container PUBLISHED, then the profile's newest thread with the same text).
// A thread's parts and the first comment are replies, each to the part before (kit/thread.ts), through the same
// containers under their own step names ('part:0:container', 'firstComment:publish').
import type { OAuthAdapterDependencies } from '../network.ts';
import { ProviderError } from '../adapter.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, PublishedItem, PublishMedia, PublishOutcome, PublishPart, PublishRequest } from '../adapter.ts';
import { MetaAdapter } from '../meta/adapter.ts';
import { grantedScopes, oauthLink, tokensOf, type OAuthLink } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { partStep, postFirstComment, publishThread } from '../kit/thread.ts';
import { containerCheckAfterMs, containerFlow, finishedContainer, finishedContainers, publishedContainer } from '../meta/containers.ts';
import { Graph, insightsOf } from '../meta/graph.ts';
import { threadsLogin } from './login.ts';
import { threadsRules } from './network.ts';

/** The Threads API version in every path but the token endpoints'. */
export const threadsApiVersion = 'v1.0';

export type Params = Record<string, string | undefined>;

interface ThreadsSettings {
  replyControl?: string;
  linkAttachment?: string;
}

const threadsQuotas = (postsPerDay: number): Quota[] => [
  { name: 'Threads: 250 API-published posts per 24 hours', scope: 'account', windowSeconds: 86_400, limit: postsPerDay, costPerPublish: 1 },
  // A thread's parts and a first comment are replies, which Threads counts apart.
  { name: 'Threads: 1,000 API-published replies per 24 hours', scope: 'account', windowSeconds: 86_400, limit: 1000, costPerPublish: 0, costPerReply: 1 },
];

export class ThreadsAdapter extends MetaAdapter implements ProviderAdapter {
  constructor(graph: Graph, link: OAuthLink, postsPerDay: number) {
    super({ rules: threadsRules, duplicates: 'look-up', quotas: threadsQuotas(postsPerDay) }, graph, link);
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const { account, caption, media, signal } = request;
    const { id: user, token } = this.idAndToken(account);
    const { replyControl, linkAttachment } = request.settings as ThreadsSettings;
    if (linkAttachment && media.length) throw new ProviderError('PROVIDER_REJECTED', 'Threads shows a link attachment only on a post without media.', false);
    const steps = new Steps(request.checkpoint);
    const publishing: ThreadsPublishing = { graph: this.graph, user, token, signal, steps };
    const posted = (prefix: string, part: PublishPart, params: Params) => publishedPart(publishing, prefix, part, params);
    // A reply whose container is still processing ends this attempt as `processing`; the next resumes from its steps.
    const reply = async (prefix: string, part: PublishPart, params: Params): Promise<PublishedItem> => {
      const item = await posted(prefix, part, params).catch((error: unknown) => {
        throw withPermissionAdvice(error, grantedScopes(tokensOf(account)), 'threads_manage_replies', "replies (a thread's parts, first comments)");
      });
      if (!item) throw new StillProcessing();
      return item;
    };
    const processing: PublishOutcome = { status: 'processing', handle: 'container', checkAfterMs: containerCheckAfterMs };
    const first = await posted('', { caption, media }, { reply_control: replyControl, link_attachment: linkAttachment });
    if (!first) return processing;
    try {
      // Threads "Create Replies": a container with reply_to_id = the media id replied to, then threads_publish
      // (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies).
      const parts = await publishThread(steps, request.thread, first, (part, parent, _root, index) =>
        reply(`${partStep(index)}:`, part, { reply_control: replyControl, reply_to_id: parent.remoteId }),
      );
      const firstComment = await postFirstComment(steps, request.firstComment, (text) =>
        reply('firstComment:', { caption: text, media: [] }, { reply_to_id: parts[parts.length - 1]!.remoteId }),
      );
      return { status: 'published', item: { ...first, ...(request.thread.length ? { parts } : {}), ...(firstComment ? { firstComment } : {}) } };
    } catch (error) {
      if (error instanceof StillProcessing) return processing;
      throw error;
    }
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const { views, likes, replies, reposts, quotes } = await insightsOf(
      this.graph,
      remoteId,
      tokensOf(account).accessToken,
      'views,likes,replies,reposts,quotes',
    );
    const shares = reposts === undefined && quotes === undefined ? undefined : (reposts ?? 0) + (quotes ?? 0);
    return { impressions: views, likes, comments: replies, shares };
  }
}

/** Where one attempt publishes to a profile: its Graph, id and token, and the attempt's steps. */
export interface ThreadsPublishing {
  graph: Graph;
  user: string;
  token: string;
  signal: AbortSignal;
  steps: Steps;
}

/**
 * One post (a carousel's items first) through its containers, each step named after `prefix`: published once, or
 * null while Meta is still processing one of its containers. Replies (`reply_to_id`) are listed on the profile's
 * `replies` edge, where an interrupted publish is looked up.
 */
export async function publishedPart(
  { graph, user, token, signal, steps }: ThreadsPublishing,
  prefix: string,
  part: PublishPart,
  params: Params,
): Promise<PublishedItem | null> {
  const flow = containerFlow('Threads', { graph, token, signal }, { status: 'status', reason: 'error_message' });
  const create = (containerParams: Params) => async () => (await graph.post<{ id: string }>(`/${user}/threads`, token, containerParams, signal)).id;
  const post: Params = { text: part.caption || undefined, ...params };
  let container: string | null;
  if (part.media.length > 1) {
    const items = part.media.map((item, index) => ({ name: `${prefix}item:${index}`, create: create({ is_carousel_item: 'true', ...itemParams(item) }) }));
    const children = await finishedContainers(steps, flow, items);
    container =
      children && (await finishedContainer(steps, flow, `${prefix}container`, create({ media_type: 'CAROUSEL', children: children.join(','), ...post })));
  } else {
    const single: Params = part.media[0] ? { ...itemParams(part.media[0]), ...post } : { media_type: 'TEXT', ...post };
    container = await finishedContainer(steps, flow, `${prefix}container`, create(single));
  }
  if (!container) return null;
  const postsEdge = params.reply_to_id ? 'replies' : 'threads';
  return publishedContainer(steps, flow, container, {
    graph,
    user,
    token,
    signal,
    publishEdge: 'threads_publish',
    postsEdge,
    textField: 'text',
    text: part.caption,
    stepPrefix: prefix,
  });
}

/**
 * A call refused for a permission (Graph's code 10) from a profile not known to have granted `permission` (connected
 * before it was asked for, or it was unticked): the reason says how to get it (login.ts: replies may need it).
 */
export function withPermissionAdvice(error: unknown, granted: ReadonlySet<string> | undefined, permission: string, use: string): unknown {
  if (!(error instanceof ProviderError) || error.transient || !error.message.includes('(#10)') || granted?.has(permission)) return error;
  return new ProviderError(error.code, `${error.message} Threads asks ${use} for the ${permission} permission: connect the profile again and allow it.`, false);
}

/** A reply's container Meta has not finished processing: the attempt ends as `processing` (not a failure). */
class StillProcessing extends Error {}

/** An image or a video item of a container, with its alt text (Threads takes it on both). */
const itemParams = (item: PublishMedia): Params => ({
  ...(item.kind === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { media_type: 'IMAGE', image_url: item.url }),
  alt_text: item.altText ?? undefined,
});

/** graph.threads.net's versioned API (`graph`), and its unversioned token paths (`tokens`). */
export function threadsGraphs({ app, config }: Pick<OAuthAdapterDependencies, 'app' | 'config'>): { graph: Graph; tokens: Graph } {
  const options = { baseUrl: app.apiBaseUrl, network: 'Threads', timeoutMs: config.networkTimeoutMs };
  return { graph: new Graph({ ...options, version: threadsApiVersion }), tokens: new Graph(options) };
}

export function createThreadsAdapter({ app, redirectUri, config }: OAuthAdapterDependencies): ThreadsAdapter {
  const { graph, tokens } = threadsGraphs({ app, config });
  const profile = threadsLogin(tokens, graph);
  // Its code exchange answers without `token_type`: completed for every network by oauth2.ts (tokenAnswers.ts).
  const link = oauthLink(profile, app, { redirectUri, timeoutMs: config.networkTimeoutMs, fetch: graph.fetch });
  return new ThreadsAdapter(graph, link, config.threadsPostsPerDay);
}
