// An X API v2 stand-in for tests: the OAuth 2.0 part is test/support/oauthNetwork.ts (X's paths, PKCE, HTTP Basic,
// rotating refresh tokens, GET /2/users/me); this adds exactly the endpoints the adapter calls, as X's reference
// documents them, with X's validation and error bodies. test/http/xStandIn.test.ts drives it with twitter-api-v2 (the
// maintained client) to keep its shapes honest.
//
//   POST /2/media/upload/initialize        https://docs.x.com/x-api/media/initialize-media-upload
//   POST /2/media/upload/:id/append        https://docs.x.com/x-api/media/append-media-upload (multipart, <= 5 MB)
//   POST /2/media/upload/:id/finalize      https://docs.x.com/x-api/media/finalize-media-upload
//   GET  /2/media/upload?command=STATUS    https://docs.x.com/x-api/media/get-media-upload-status
//   POST /2/media/metadata                 https://docs.x.com/x-api/media/create-media-metadata
//   POST /2/tweets                         https://docs.x.com/x-api/posts/create-post (403 duplicate content; media
//                                          still processing refused: "Your media IDs are invalid."; a reply to a
//                                          post that does not exist: 403)
//   GET  /2/tweets/:id                     https://docs.x.com/x-api/posts/get-post-by-id (public_metrics)
//   DELETE /2/tweets/:id                   https://docs.x.com/x-api/posts/delete-post (the author's own only)
//   GET  /2/users/:id/tweets               https://docs.x.com/x-api/users/get-posts (newest first, start_time or
//                                          since_id, tweet.fields=referenced_tweets)
//   GET  /2/tweets/search/recent           https://docs.x.com/x-api/posts/search-recent-posts: the query operator
//                                          `conversation_id:` only (anything else a 400, the stand-in knows no
//                                          more), posts of the last 7 days, newest first, max_results 10..100,
//                                          `meta.next_token` to the next page while there is one, since_id,
//                                          tweet.fields / expansions=author_id / user.fields as asked; deleted posts
//                                          are gone from it (the first post of the conversation is in it: its
//                                          conversation_id is its own id). Switch: `searchRefused` answers the 403
//                                          an app whose access has no search gets: problem type `client-forbidden`,
//                                          reason `client-not-enrolled`, with X's "attached to a Project" detail
//                                          (https://docs.x.com/x-api/fundamentals/response-codes-and-errors, the
//                                          problem types; the body as public X clients match it on `reason`)
// Each endpoint needs the OAuth 2.0 scopes its reference page names (a token without one: 403 Forbidden).
// Errors are problem JSON (https://docs.x.com/x-api/fundamentals/response-codes-and-errors); every answer carries
// x-rate-limit-limit/-remaining/-reset (https://docs.x.com/x-api/fundamentals/rate-limits). Uploaded bytes are only
// counted and hashed, never kept. Two limits of posting beyond the 15-minute windows (switches):
//   dailyCap  the tiers' 24-hour caps on POST /2/tweets, per user or per app: answers carry
//             x-user-limit-24hour-limit/-remaining/-reset (or x-app-…), and past the cap a 429 whose 15-minute
//             x-rate-limit-remaining is not 0 (twitter-api-v2 reads them as `rateLimit.userDay` / `rateLimit.day`,
//             dist/esm/client-mixins/request-handler.helper.js; the header list of docs.rs `twapi-v2`
//             maker/header/header.yaml; xdevplatform/xdk#25 shows a cap's 429 beside a 15-minute window far from spent)
//   credits   a pay-per-use app's credits: each post spends one, and none left answers 402 Payment Required
//             `{detail: "credits depleted", status: 402, title: "Payment Required", type: …/problems/credits-depleted}`
//             (an answer as recorded by X clients: twitter-api-v2's ApiResponseError code 402 in
//             tryethernal/ethernal#1324; the body in public X posting pipelines); no 24-hour headers
//             (docs.x.com "Rate limits": pay-per-use has no caps)
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import twitterText from 'twitter-text';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export const segmentLimit = 5 * 1024 * 1024;
const categoryLimits: Record<string, { bytes: number; types: RegExp }> = {
  tweet_image: { bytes: 5 * 1024 * 1024, types: /^image\/(jpeg|png|webp|bmp|pjpeg|tiff)$/ },
  tweet_gif: { bytes: 15 * 1024 * 1024, types: /^image\/gif$/ },
  tweet_video: { bytes: 512 * 1024 * 1024, types: /^video\/(mp4|quicktime|webm|mp2t)$/ },
};
const replySettings = ['following', 'mentionedUsers', 'subscribers', 'verified'];

export interface XMedia {
  id: string;
  ownerId: string;
  mediaType: string;
  category: string;
  totalBytes: number;
  /** Bytes received per segment index (a segment sent again replaces itself). */
  segments: Map<number, number>;
  /** sha256 of the segments in order, while they arrive in order. */
  hash: Hash;
  nextSegment: number;
  finalized: boolean;
  /** STATUS answers `in_progress` this many more times before `succeeded`. */
  pollsLeft: number;
  altText: string | null;
}

export interface XPost {
  id: string;
  authorId: string;
  text: string;
  mediaIds: string[];
  replySettings: string | null;
  /** `reply.in_reply_to_tweet_id`: the post this one replies to. */
  inReplyToId: string | null;
  /** The first post of the thread it belongs to (its own id for a post that replies to none). */
  conversationId: string;
  createdAt: Date;
  metrics: { retweet_count: number; reply_count: number; like_count: number; quote_count: number; impression_count: number };
}

/** A route of the API, as the switches below name it. */
export type XRoute = 'initialize' | 'append' | 'finalize' | 'status' | 'metadata' | 'tweet' | 'delete' | 'lookup' | 'timeline' | 'search';

/** The scopes each route's reference page requires of an OAuth 2.0 user token. */
const scopesOf: Record<XRoute, string[]> = {
  initialize: ['media.write'],
  append: ['media.write'],
  finalize: ['media.write'],
  status: ['media.write'],
  metadata: ['media.write'],
  tweet: ['tweet.read', 'tweet.write', 'users.read'],
  delete: ['tweet.read', 'tweet.write', 'users.read'],
  lookup: ['tweet.read', 'users.read'],
  timeline: ['tweet.read', 'users.read'],
  search: ['tweet.read', 'users.read'],
};

/** Recent search reaches back 7 days. */
const searchableMs = 7 * 24 * 3600_000;

export class XStandIn {
  readonly oauth: OAuthNetwork;
  readonly media = new Map<string, XMedia>();
  readonly posts: XPost[] = [];
  /** Every API call, in order (OAuth calls are in `oauth.requests`). */
  readonly calls: { route: XRoute; mediaId?: string; segment?: number }[] = [];
  /** How many STATUS answers a video's processing takes. */
  videoPolls = 2;
  /** Every token is refused (a suspended account): 401 even after a refresh. */
  refuseTokens = false;
  /** Routes answering 429 until their reset (Unix seconds). */
  readonly limited = new Map<XRoute, number>();
  /** A tier's 24-hour cap on posting (see above, `capDaily`): `limit` posts per user or per app until `reset` (Unix seconds). */
  dailyCap: { scope: 'user' | 'app'; limit: number; reset: number } | undefined;
  readonly #postedUnderCap = new Map<string, number>();
  /** A pay-per-use app's credits left (see above); undefined: a tier without credits. */
  credits: number | undefined;
  /** The app's access has no recent search (the Free tier's): 403 client-forbidden (see above). */
  searchRefused = false;
  /** Every author of a post, by id: what `expansions=author_id` shows. */
  readonly users = new Map<string, NetworkUser>();
  /** Called when a route has done its work, before it answers: true holds the answer forever (a worker killed meanwhile). */
  hold: ((route: XRoute, detail: { mediaId?: string; segment?: number }) => boolean) | undefined;
  readonly #held = new Set<ServerResponse>();
  #nextId = 1_900_000_000_000_000_000n;

  private constructor(oauth: OAuthNetwork) {
    this.oauth = oauth;
    oauth.api = (req, res, url) => this.#handle(req, res, url);
  }

  static async start(redirectUris: string[]): Promise<XStandIn> {
    return new XStandIn(await new OAuthNetwork(redirectUris).start());
  }

  get url(): string {
    return this.oauth.url;
  }

  /** The service's settings pointing X at this stand-in. */
  settings(): Record<string, string> {
    return { X_CLIENT_ID: this.oauth.clientId, X_CLIENT_SECRET: this.oauth.clientSecret, X_API_BASE_URL: this.url, X_AUTH_BASE_URL: `${this.url}/i` };
  }

  async stop(): Promise<void> {
    for (const res of this.#held) res.destroy();
    await this.oauth.stop();
  }

  /** `route` answers 429 for `seconds` from now. */
  limit(route: XRoute, seconds: number): void {
    this.limited.set(route, Math.ceil(Date.now() / 1000) + seconds);
  }

  /** Tokens for the next user, through the authorization code flow with PKCE as a client would run it. */
  async authorize(redirectUri: string): Promise<{ access_token: string; refresh_token?: string }> {
    const verifier = randomBytes(32).toString('base64url');
    const code = await this.authorizationCode(redirectUri, verifier);
    return (await this.exchange(redirectUri, code, verifier)).body as { access_token: string; refresh_token?: string };
  }

  /** The code X's authorization page gives the next user, for the PKCE challenge of `verifier`. */
  async authorizationCode(redirectUri: string, verifier: string): Promise<string> {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: this.oauth.clientId,
      redirect_uri: redirectUri,
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      state: 'state',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const back = new URL((await fetch(`${this.url}/i/oauth2/authorize?${query}`, { redirect: 'manual' })).headers.get('location')!);
    return back.searchParams.get('code')!;
  }

  /** The token endpoint's answer to the exchange of `code` by the app (HTTP Basic). */
  async exchange(redirectUri: string, code: string, verifier: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const basic = Buffer.from(`${this.oauth.clientId}:${this.oauth.clientSecret}`).toString('base64');
    const answer = await fetch(`${this.url}/2/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  postsBy(user: NetworkUser): XPost[] {
    return this.posts.filter((post) => post.authorId === user.id);
  }

  #id(): string {
    this.#nextId += 1n;
    return String(this.#nextId);
  }

  #send(res: ServerResponse, status: number, body: unknown, route?: XRoute, headers: Record<string, string> = {}): void {
    const limited = route !== undefined && this.limited.has(route);
    const reset = (route && this.limited.get(route)) || Math.ceil(Date.now() / 1000) + 900;
    res
      .writeHead(status, {
        'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
        'x-rate-limit-limit': '100',
        'x-rate-limit-remaining': limited ? '0' : '99',
        'x-rate-limit-reset': String(reset),
        ...headers,
      })
      .end(body === undefined ? undefined : JSON.stringify(body));
  }

  /** The 24-hour cap's headers for `user`'s posting, where a cap is set. */
  #dailyHeaders(user: NetworkUser): Record<string, string> {
    const cap = this.dailyCap;
    if (!cap) return {};
    const prefix = cap.scope === 'user' ? 'x-user-limit-24hour' : 'x-app-limit-24hour';
    const remaining = Math.max(0, cap.limit - (this.#postedUnderCap.get(cap.scope === 'user' ? user.id : 'app') ?? 0));
    return { [`${prefix}-limit`]: String(cap.limit), [`${prefix}-remaining`]: String(remaining), [`${prefix}-reset`]: String(cap.reset) };
  }

  /** Posting is capped at `limit` posts per user (or app) until `hours` from now; the count starts at 0. */
  capDaily(scope: 'user' | 'app', limit: number, hours = 24): void {
    this.dailyCap = { scope, limit, reset: Math.ceil(Date.now() / 1000) + hours * 3600 };
    this.#postedUnderCap.clear();
  }

  /** Answers X's 400 for a parameter; true (answered), for the router. */
  #invalid(res: ServerResponse, route: XRoute, parameter: string, value: unknown, message: string): true {
    this.#send(
      res,
      400,
      {
        errors: [{ parameters: { [parameter]: [String(value)] }, message }],
        title: 'Invalid Request',
        detail: 'One or more parameters to your request was invalid.',
        type: 'https://api.twitter.com/2/problems/invalid-request',
      },
      route,
    );
    return true;
  }

  #problem(res: ServerResponse, route: XRoute, status: number, title: string, detail: string, type = 'about:blank'): true {
    this.#send(res, status, { title, detail, type, status }, route);
    return true;
  }

  async #handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const found = routeOf(req.method ?? 'GET', url);
    if (!found) return false;
    const { route, mediaId, userId, postId } = found;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = this.refuseTokens ? undefined : this.oauth.userOf(token);
    if (!user) {
      await drain(req);
      this.#problem(res, route, 401, 'Unauthorized', 'Unauthorized');
      return true;
    }
    const granted = this.oauth.scopeOf(token);
    if (!scopesOf[route].every((scope) => granted.includes(scope))) {
      await drain(req);
      return this.#problem(res, route, 403, 'Forbidden', 'Forbidden');
    }
    const reset = this.limited.get(route);
    if (reset && reset > Date.now() / 1000) {
      await drain(req);
      this.#problem(res, route, 429, 'Too Many Requests', 'Too Many Requests');
      return true;
    }
    if (reset) this.limited.delete(route);
    const answer = (status: number, body?: unknown, detail: { mediaId?: string; segment?: number } = {}) => {
      this.calls.push({ route, ...detail });
      if (this.hold?.(route, detail)) {
        this.#held.add(res);
        return;
      }
      this.#send(res, status, body, route, route === 'tweet' ? this.#dailyHeaders(user) : {});
    };
    switch (route) {
      case 'initialize': {
        const body = await json(req);
        const limits = categoryLimits[String(body.media_category)];
        if (!limits) return this.#invalid(res, route, 'media_category', body.media_category, 'media_category is not valid');
        if (typeof body.media_type !== 'string' || !limits.types.test(body.media_type)) {
          return this.#invalid(res, route, 'media_type', body.media_type, `media_type is not valid for ${body.media_category}`);
        }
        const total = Number(body.total_bytes);
        if (!Number.isInteger(total) || total < 1) return this.#invalid(res, route, 'total_bytes', body.total_bytes, 'total_bytes is required');
        if (total > limits.bytes) return this.#invalid(res, route, 'total_bytes', total, `File size exceeds ${limits.bytes} bytes.`);
        const media: XMedia = {
          id: this.#id(),
          ownerId: user.id,
          mediaType: body.media_type,
          category: String(body.media_category),
          totalBytes: total,
          segments: new Map(),
          hash: createHash('sha256'),
          nextSegment: 0,
          finalized: false,
          pollsLeft: body.media_category === 'tweet_video' ? this.videoPolls : 0,
          altText: null,
        };
        this.media.set(media.id, media);
        answer(200, { data: { id: media.id, media_key: `7_${media.id}`, expires_after_secs: 86_400 } }, { mediaId: media.id });
        return true;
      }
      case 'append': {
        const media = this.#mediaOf(mediaId, user);
        if (!media) {
          await drain(req);
          return this.#invalid(res, route, 'id', mediaId, 'The media id is not valid.');
        }
        const form = multipart(await body(req), String(req.headers['content-type']));
        const index = Number(form.get('segment_index')?.toString('utf8'));
        const bytes = form.get('media');
        if (!Number.isInteger(index) || index < 0 || index > 999)
          return this.#invalid(res, route, 'segment_index', form.get('segment_index'), 'segment_index must be 0-999');
        if (!bytes) return this.#invalid(res, route, 'media', '', 'media is required');
        if (bytes.length > segmentLimit) return this.#invalid(res, route, 'media', bytes.length, 'The segment is larger than 5 MB.');
        if (media.finalized) return this.#invalid(res, route, 'id', mediaId, 'The media upload was already finalized.');
        if (index === media.nextSegment) {
          media.hash.update(bytes);
          media.nextSegment++;
        }
        media.segments.set(index, bytes.length);
        answer(200, { data: { expires_at: Math.floor(Date.now() / 1000) + 86_400 } }, { mediaId, segment: index });
        return true;
      }
      case 'finalize': {
        await drain(req);
        const media = this.#mediaOf(mediaId, user);
        if (!media) return this.#invalid(res, route, 'id', mediaId, 'The media id is not valid.');
        const received = [...media.segments.values()].reduce((sum, bytes) => sum + bytes, 0);
        if (received !== media.totalBytes)
          return this.#invalid(res, route, 'id', mediaId, `Segments do not add up to provided total file size (${received} of ${media.totalBytes}).`);
        media.finalized = true;
        answer(
          200,
          { data: { id: media.id, media_key: `7_${media.id}`, size: media.totalBytes, expires_after_secs: 86_400, ...processingOf(media) } },
          { mediaId },
        );
        return true;
      }
      case 'status': {
        const media = this.#mediaOf(url.searchParams.get('media_id') ?? undefined, user);
        if (url.searchParams.get('command') !== 'STATUS')
          return this.#invalid(res, route, 'command', url.searchParams.get('command'), 'command must be STATUS');
        if (!media?.finalized) return this.#invalid(res, route, 'media_id', url.searchParams.get('media_id'), 'The media id is not valid.');
        if (media.pollsLeft > 0) media.pollsLeft--;
        answer(200, { data: { id: media.id, media_key: `7_${media.id}`, ...processingOf(media) } }, { mediaId: media.id });
        return true;
      }
      case 'metadata': {
        const body = await json(req);
        const media = this.#mediaOf(body.id, user);
        const text = body.metadata?.alt_text?.text;
        if (!media) return this.#invalid(res, route, 'id', body.id, 'The media id is not valid.');
        if (typeof text !== 'string' || text.length > 1000)
          return this.#invalid(res, route, 'metadata.alt_text.text', text, 'alt_text must be at most 1000 characters');
        media.altText = text;
        answer(200, { data: { id: media.id, associated_metadata: { alt_text: { text } } } }, { mediaId: media.id });
        return true;
      }
      case 'tweet': {
        const body = await json(req);
        const text = typeof body.text === 'string' ? body.text : '';
        const mediaIds: string[] = body.media?.media_ids ?? [];
        if (!text && !mediaIds.length) return this.#invalid(res, route, 'text', '', 'text or media is required');
        if (text && !twitterText.parseTweet(text).valid) return this.#problem(res, route, 400, 'Invalid Request', 'Your Tweet text is too long.');
        if (body.reply_settings !== undefined && !replySettings.includes(body.reply_settings))
          return this.#invalid(res, route, 'reply_settings', body.reply_settings, 'reply_settings is not valid');
        const attached = mediaIds.map((id) => this.#mediaOf(id, user));
        const ready = (media: XMedia | undefined) => media?.finalized && media.pollsLeft === 0;
        if (mediaIds.length > 4 || !attached.every(ready)) return this.#invalid(res, route, 'media.media_ids', mediaIds, 'Your media IDs are invalid.');
        const inReplyToId: string | null = body.reply?.in_reply_to_tweet_id ?? null;
        const parent = inReplyToId ? this.posts.find((candidate) => candidate.id === inReplyToId) : undefined;
        if (inReplyToId && !parent) {
          return this.#problem(res, route, 403, 'Forbidden', 'You attempted to reply to a Tweet that is deleted or not visible to you.');
        }
        if (text && this.postsBy(user).some((post) => post.text === text)) {
          return this.#problem(res, route, 403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
        }
        if (this.credits !== undefined && this.credits <= 0) {
          this.#send(
            res,
            402,
            { detail: 'credits depleted', status: 402, title: 'Payment Required', type: 'https://api.x.com/2/problems/credits-depleted' },
            route,
          );
          return true;
        }
        const capKey = this.dailyCap?.scope === 'user' ? user.id : 'app';
        if (this.dailyCap && (this.#postedUnderCap.get(capKey) ?? 0) >= this.dailyCap.limit) {
          this.#send(res, 429, { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }, route, this.#dailyHeaders(user));
          return true;
        }
        if (this.credits !== undefined) this.credits--;
        if (this.dailyCap) this.#postedUnderCap.set(capKey, (this.#postedUnderCap.get(capKey) ?? 0) + 1);
        const id = this.#id();
        const post: XPost = {
          id,
          authorId: user.id,
          text,
          mediaIds,
          replySettings: body.reply_settings ?? null,
          inReplyToId,
          conversationId: parent?.conversationId ?? id,
          createdAt: new Date(),
          metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, impression_count: 0 },
        };
        this.posts.push(post);
        this.users.set(user.id, user);
        if (parent) parent.metrics.reply_count++;
        answer(201, { data: { id: post.id, text: shown(post), edit_history_tweet_ids: [post.id] } });
        return true;
      }
      case 'lookup': {
        const post = this.posts.find((candidate) => candidate.id === postId);
        answer(200, post ? { data: this.#shown(post, url) } : notFound(postId!));
        return true;
      }
      case 'delete': {
        const post = this.posts.find((candidate) => candidate.id === postId);
        if (!post) {
          answer(200, notFound(postId!));
          return true;
        }
        if (post.authorId !== user.id) return this.#problem(res, route, 403, 'Forbidden', 'You are not authorized to delete this Tweet.');
        this.posts.splice(this.posts.indexOf(post), 1);
        answer(200, { data: { deleted: true } });
        return true;
      }
      case 'timeline': {
        const since = url.searchParams.get('start_time');
        const sinceId = url.searchParams.get('since_id');
        const max = Number(url.searchParams.get('max_results') ?? 10);
        if (!(max >= 5 && max <= 100)) return this.#invalid(res, route, 'max_results', max, 'max_results must be 5-100');
        const posts = this.posts
          .filter((post) => post.authorId === userId && (!since || post.createdAt >= new Date(since)) && (!sinceId || newerThan(post.id, sinceId)))
          .reverse()
          .slice(0, max);
        answer(200, this.#page(posts.map((post) => this.#shown(post, url))));
        return true;
      }
      case 'search': {
        if (this.searchRefused) {
          this.#send(res, 403, clientForbidden(this.oauth.clientId), route);
          return true;
        }
        const query = url.searchParams.get('query') ?? '';
        const conversation = /^conversation_id:(\d+)$/.exec(query.trim())?.[1];
        if (!conversation) return this.#invalid(res, route, 'query', query, 'The stand-in knows only the conversation_id: operator.');
        const max = Number(url.searchParams.get('max_results') ?? 10);
        if (!(max >= 10 && max <= 100))
          return this.#invalid(res, route, 'max_results', max, `The \`max_results\` query parameter value [${max}] is not between 10 and 100`);
        const sinceId = url.searchParams.get('since_id');
        const token = url.searchParams.get('next_token');
        const before = token ? Buffer.from(token, 'base64url').toString('utf8') : undefined;
        const matching = this.posts
          .filter(
            (post) =>
              post.conversationId === conversation &&
              Date.now() - post.createdAt.getTime() < searchableMs &&
              (!sinceId || newerThan(post.id, sinceId)) &&
              (!before || newerThan(before, post.id)),
          )
          .reverse();
        const posts = matching.slice(0, max);
        const more = matching.length > max ? Buffer.from(posts.at(-1)!.id).toString('base64url') : undefined;
        const expanded = (url.searchParams.get('expansions') ?? '').split(',').includes('author_id');
        const userFields = (url.searchParams.get('user.fields') ?? '').split(',');
        const authors = [...new Set(posts.map((post) => post.authorId))].flatMap((id) => {
          const author = this.users.get(id);
          return author
            ? [
                {
                  id,
                  name: author.name,
                  username: author.username,
                  ...(userFields.includes('profile_image_url') && author.profileImageUrl ? { profile_image_url: author.profileImageUrl } : {}),
                },
              ]
            : [];
        });
        const page = this.#page(posts.map((post) => this.#shown(post, url)));
        answer(200, {
          ...page,
          ...(expanded && authors.length ? { includes: { users: authors } } : {}),
          meta: { ...page.meta, ...(more ? { next_token: more } : {}) },
        });
        return true;
      }
    }
  }

  /** A post as X answers it, with the `tweet.fields` the request asks for. */
  #shown(post: XPost, url: URL): Record<string, unknown> {
    const fields = (url.searchParams.get('tweet.fields') ?? '').split(',');
    const parent = post.inReplyToId ? this.posts.find((candidate) => candidate.id === post.inReplyToId) : undefined;
    return {
      id: post.id,
      text: shown(post),
      edit_history_tweet_ids: [post.id],
      ...(fields.includes('public_metrics') ? { public_metrics: post.metrics } : {}),
      ...(fields.includes('referenced_tweets') && post.inReplyToId ? { referenced_tweets: [{ type: 'replied_to', id: post.inReplyToId }] } : {}),
      ...(fields.includes('author_id') ? { author_id: post.authorId } : {}),
      ...(fields.includes('created_at') ? { created_at: post.createdAt.toISOString() } : {}),
      ...(fields.includes('conversation_id') ? { conversation_id: post.conversationId } : {}),
      ...(fields.includes('in_reply_to_user_id') && parent ? { in_reply_to_user_id: parent.authorId } : {}),
    };
  }

  /** A list's answer: `data` only where there are posts, `meta` with the newest and oldest ids. */
  #page(data: Record<string, unknown>[]): { data?: Record<string, unknown>[]; meta: Record<string, unknown> } {
    return {
      ...(data.length ? { data } : {}),
      meta: { result_count: data.length, ...(data.length ? { newest_id: data[0]!.id, oldest_id: data.at(-1)!.id } : {}) },
    };
  }

  #mediaOf(id: string | undefined, user: NetworkUser): XMedia | undefined {
    const media = id ? this.media.get(id) : undefined;
    return media?.ownerId === user.id ? media : undefined;
  }
}

function routeOf(method: string, url: URL): { route: XRoute; mediaId?: string; userId?: string; postId?: string } | undefined {
  const path = url.pathname;
  if (method === 'POST' && path === '/2/media/upload/initialize') return { route: 'initialize' };
  const upload = /^\/2\/media\/upload\/(\d+)\/(append|finalize)$/.exec(path);
  if (method === 'POST' && upload) return { route: upload[2] as 'append' | 'finalize', mediaId: upload[1] };
  if (method === 'GET' && path === '/2/media/upload') return { route: 'status' };
  if (method === 'POST' && path === '/2/media/metadata') return { route: 'metadata' };
  if (method === 'POST' && path === '/2/tweets') return { route: 'tweet' };
  if (method === 'GET' && path === '/2/tweets/search/recent') return { route: 'search' };
  const post = /^\/2\/tweets\/(\d+)$/.exec(path);
  if (method === 'GET' && post) return { route: 'lookup', postId: post[1] };
  if (method === 'DELETE' && post) return { route: 'delete', postId: post[1] };
  const timeline = /^\/2\/users\/(\d+)\/tweets$/.exec(path);
  if (method === 'GET' && timeline) return { route: 'timeline', userId: timeline[1] };
  return undefined;
}

/** Snowflake ids compared as the numbers they are. */
const newerThan = (id: string, than: string) => BigInt(id) > BigInt(than);

/** A 200 whose `errors` say the post is not there (deleted, or never was). */
function notFound(postId: string) {
  return {
    errors: [
      {
        value: postId,
        detail: `Could not find tweet with id: [${postId}].`,
        title: 'Not Found Error',
        resource_type: 'tweet',
        parameter: 'id',
        resource_id: postId,
        type: 'https://api.twitter.com/2/problems/resource-not-found',
      },
    ],
  };
}

/** X's 403 for an app whose access does not include the endpoint (see above). */
export function clientForbidden(clientId: string) {
  return {
    client_id: clientId,
    detail:
      'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal.',
    registration_url: 'https://developer.twitter.com/en/docs/projects/overview',
    title: 'Client Forbidden',
    required_enrollment: 'Appropriate Level of API Access',
    reason: 'client-not-enrolled',
    type: 'https://api.twitter.com/2/problems/client-forbidden',
  };
}

/** How X shows a post's text back: links as t.co links, and a post with media ends with the media's link. */
function shown(post: XPost): string {
  const text = post.text.replace(/\bhttps?:\/\/\S+/g, () => `https://t.co/${post.id.slice(-10)}`);
  return post.mediaIds.length ? `${text} https://t.co/m${post.id.slice(-9)}`.trim() : text;
}

function processingOf(media: XMedia): { processing_info?: { state: string; check_after_secs?: number; progress_percent: number } } {
  if (media.category !== 'tweet_video' && media.category !== 'tweet_gif') return {};
  return media.pollsLeft > 0
    ? { processing_info: { state: media.segments.size ? 'in_progress' : 'pending', check_after_secs: 1, progress_percent: 50 } }
    : { processing_info: { state: 'succeeded', progress_percent: 100 } };
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function json(req: IncomingMessage): Promise<any> {
  try {
    return JSON.parse((await body(req)).toString('utf8') || '{}');
  } catch {
    return {};
  }
}

/** multipart/form-data's parts by name (RFC 7578), with or without a filename, as raw bytes. */
function multipart(bytes: Buffer, contentType: string): Map<string, Buffer> {
  const parts = new Map<string, Buffer>();
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return parts;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at !== -1) {
    const next = bytes.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = bytes.subarray(at + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    const name = /name="([^"]*)"/.exec(part.subarray(0, headerEnd).toString('utf8'))?.[1];
    if (name !== undefined && headerEnd !== -1) parts.set(name, part.subarray(headerEnd + 4));
    at = next;
  }
  return parts;
}
