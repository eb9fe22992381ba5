// X (API v2), from X's reference:
//   connect   OAuth 2.0 authorization code with PKCE (mandatory at X), the app a confidential client authenticating
//             with HTTP Basic; `offline.access` gives a refresh token, rotated on every refresh (the service stores
//             the new one at once, one refresh per account: src/accounts/tokens.ts)
//             https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token; identity GET /2/users/me
//             https://docs.x.com/x-api/users/get-my-user
//   publish   media through the chunked upload (media.ts), then POST /2/tweets {text, media.media_ids, reply_settings}
//             https://docs.x.com/x-api/posts/create-post; never while a file is still processing. A thread's parts
//             and a first comment are posts with `reply.in_reply_to_tweet_id` the part before (same page)
//   no duplicates  X takes no idempotency key: a post step an earlier attempt started without recording its result
//             is looked up among the account's recent posts before posting again (posts.ts)
//   limits    429 waits until `x-rate-limit-reset` (api.ts); posts per account per day are a quota (X_POSTS_PER_DAY)
//             https://docs.x.com/x-api/fundamentals/rate-limits; a 403 (duplicate content) is final with X's reason
//   metrics   GET /2/tweets/{id}?tweet.fields=public_metrics https://docs.x.com/x-api/posts/get-post-by-id
import type { GivenApp } from '../network.ts';
import type { ConnectedAccount, ItemMetrics, ProviderAdapter, ProviderTokens, PublishedItem, PublishOutcome, PublishRequest } from '../adapter.ts';
import { OAuthAdapter } from '../kit/oauthAdapter.ts';
import { oauthLink, tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { postFirstComment, publishThread } from '../kit/thread.ts';
import type { OAuthAdapterDependencies } from '../network.ts';
import type { NetworkHttp } from '../http.ts';
import { dataOf, xHttp, type Post, type User } from './api.ts';
import { createPost, findPost, permalink } from './posts.ts';
import { uploadMedia, type Session } from './media.ts';
import { xRules } from './network.ts';

/** Reading and writing posts, uploading media, reading the profile; `offline.access` for a refresh token. */
export const xScopes = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

/** How far back a look-up for an interrupted post reaches before the attempt started (clocks differ). */
const lookBackMs = 5 * 60_000;

function xProfile(http: NetworkHttp): OAuthProfile {
  return {
    network: 'X',
    server: (app: GivenApp) => ({
      authorizationEndpoint: `${app.authBaseUrl}/oauth2/authorize`,
      tokenEndpoint: `${app.apiBaseUrl}/2/oauth2/token`,
      revocationEndpoint: `${app.apiBaseUrl}/2/oauth2/revoke`,
      scopes: xScopes,
      pkce: true,
      clientAuthentication: 'basic',
    }),
    // An app whose permissions in the developer portal are "Read" is granted no tweet.write or media.write.
    requiredScopes: { scopes: xScopes, advice: 'give the app "Read and write" permissions in the X developer portal, then connect again' },
    identities: async (tokens: ProviderTokens, app: GivenApp) => {
      const { body } = await http.send<{ data?: User }>({
        method: 'GET',
        url: `${app.apiBaseUrl}/2/users/me?user.fields=profile_image_url`,
        accessToken: tokens.accessToken,
      });
      const { id, name, username, profile_image_url: avatarUrl } = dataOf(body, 'user');
      return [{ identity: { remoteId: id, username, displayName: name || username, avatarUrl: avatarUrl ?? null }, tokens }];
    },
    refresh: 'standard',
  };
}

export interface XAdapterOptions {
  app: GivenApp;
  redirectUri: string;
  timeoutMs: number;
  /** X_POSTS_PER_DAY */
  postsPerDay: number;
}

export class XAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #http: NetworkHttp;
  readonly #api: string;

  constructor(options: XAdapterOptions) {
    const http = xHttp(options.timeoutMs);
    // Every part of a thread and a first comment is a post of its own at X.
    const quotas: Quota[] = [
      { name: 'X posts per day', scope: 'account', windowSeconds: 24 * 3600, limit: options.postsPerDay, costPerPublish: 1, costPerReply: 1 },
    ];
    super(
      { rules: xRules, duplicates: 'look-up', quotas },
      oauthLink(xProfile(http), options.app, { redirectUri: options.redirectUri, timeoutMs: options.timeoutMs, fetch: http.fetch }),
    );
    this.#http = http;
    this.#api = options.app.apiBaseUrl;
  }

  #sessionOf(request: PublishRequest): Session {
    return { apiBaseUrl: this.#api, accessToken: tokensOf(request.account).accessToken, signal: request.signal };
  }

  /** The post an interrupted attempt created, if X has it: the account's posts since the attempt started (clocks differ). */
  #findPost(request: PublishRequest, session: Session, since: string, text: string, inReplyTo?: string): Promise<string | null> {
    const after = { start_time: new Date(Date.parse(since) - lookBackMs).toISOString() };
    return findPost(this.#http, session, { authorId: request.account.remoteId ?? '', text, inReplyTo, after });
  }

  #createPost(request: PublishRequest, session: Session, post: { text: string; mediaIds: string[]; inReplyTo?: string }): Promise<string> {
    const { replySettings } = request.settings as { replySettings?: string };
    return createPost(this.#http, session, { ...post, replySettings });
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const session = this.#sessionOf(request);
    const steps = new Steps(request.checkpoint);
    const mediaIds: string[] = [];
    for (const [index, media] of request.media.entries()) {
      const state = await uploadMedia(this.#http, session, steps, `media:${index}`, media);
      if (!state.ready) return { status: 'processing', handle: 'media', checkAfterMs: state.checkAfterMs };
      mediaIds.push(state.id);
    }
    const parts = request.thread;
    const partMedia: string[][] = [];
    for (const [part, { media }] of parts.entries()) {
      partMedia.push([]);
      for (const [index, file] of media.entries()) {
        const state = await uploadMedia(this.#http, session, steps, `reply:${part}:media:${index}`, file);
        if (!state.ready) return { status: 'processing', handle: 'media', checkAfterMs: state.checkAfterMs };
        partMedia[part]!.push(state.id);
      }
    }
    const since = await steps.once('post:since', async () => new Date().toISOString());
    const item = (id: string): PublishedItem => ({ remoteId: id, remoteUrl: permalink(request.account.username, id) });
    const found = async (text: string, inReplyTo?: string) => {
      const id = await this.#findPost(request, session, since, text, inReplyTo);
      return id === null ? null : item(id);
    };
    const post = async (text: string, mediaIds: string[], inReplyTo?: string) => item(await this.#createPost(request, session, { text, mediaIds, inReplyTo }));
    const id = await steps.once('post', () => this.#createPost(request, session, { text: request.caption, mediaIds }), {
      ifInterrupted: () => this.#findPost(request, session, since, request.caption),
    });
    const first = item(id);
    const posted = await publishThread(
      steps,
      parts,
      first,
      (part, parent, _root, index) => post(part.caption, partMedia[index]!, parent.remoteId),
      (part, parent) => found(part.caption, parent.remoteId),
    );
    const last = posted[posted.length - 1]!;
    const firstComment = await postFirstComment(
      steps,
      request.firstComment,
      (text) => post(text, [], last.remoteId),
      (text) => found(text, last.remoteId),
    );
    return { status: 'published', item: { ...first, ...(parts.length ? { parts: posted } : {}), ...(firstComment ? { firstComment } : {}) } };
  }

  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const { body } = await this.#http.send<{ data?: Post }>({
      method: 'GET',
      url: `${this.#api}/2/tweets/${encodeURIComponent(remoteId)}?tweet.fields=public_metrics`,
      accessToken: tokensOf(account).accessToken,
    });
    const metrics = dataOf(body, 'post').public_metrics;
    if (!metrics) return {};
    return {
      likes: metrics.like_count,
      shares: metrics.retweet_count + metrics.quote_count,
      comments: metrics.reply_count,
      impressions: metrics.impression_count,
    };
  }
}

export function createXAdapter({ app, redirectUri, config }: OAuthAdapterDependencies): XAdapter {
  return new XAdapter({ app, redirectUri, timeoutMs: config.networkTimeoutMs, postsPerDay: config.xPostsPerDay });
}
