// A stand-in for Meta's Graph API (graph.facebook.com: Facebook Login, Pages, Instagram with Facebook Login) and the
// Threads API (graph.threads.net and threads.net's authorization, served under `threadsUrl`), as their references
// document them.
//   Manual login flow  https://developers.facebook.com/documentation/facebook-login/guides/advanced/manual-flow
//   Long-lived tokens  https://developers.facebook.com/documentation/facebook-login/guides/access-tokens/get-long-lived
//   Handling Errors  https://developers.facebook.com/docs/graph-api/guides/error-handling
//     (`{error: {message, type, code, error_subcode, fbtrace_id}}`; 190/463 for an expired token)
//   Rate Limits  https://developers.facebook.com/docs/graph-api/overview/rate-limiting/ (throttling codes, usage headers)
//   Page feed, photos, videos  https://developers.facebook.com/docs/graph-api/reference/page/feed, …/page/photos,
//     https://developers.facebook.com/docs/video-api/guides/publishing
//   Reels Publishing API  https://developers.facebook.com/docs/video-api/guides/reels-publishing
//     (/{page-id}/video_reels upload_phase=start|finish; the bytes to rupload.facebook.com, served under `reelUploadUrl`,
//     /video-upload/{version}/{video-id} with `Authorization: OAuth`, `offset` and `file_size`; GET /{video-id}?fields=status
//     with uploading/processing/publishing phases), https://developers.facebook.com/docs/graph-api/reference/video-status
//   Instagram content publishing  https://developers.facebook.com/docs/instagram-platform/content-publishing
//     (containers IN_PROGRESS until polled, publishing one early is 9007/2207027; images JPEG only)
//   Comments  https://developers.facebook.com/docs/graph-api/reference/object/comments (a Page post or video, with that
//     Page's token: the Page is the author), https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
//     (POST /{ig-media-id}/comments `message` required, with the token of the account's Page; GET of the same edge lists
//     them: a Page post's as `message` and `from` {id, name}, an IG media's as `text` and `from` {id, username}),
//     replies https://developers.facebook.com/docs/graph-api/reference/comment (`parent`, `is_hidden`; Facebook's
//     `filter=stream` and `order`), https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies
//     (a reply to a reply goes under the top-level comment; none to a hidden one), cursor paging
//     https://developers.facebook.com/docs/graph-api/results; other people's comments are made with `commentAs` (the
//     API lets only the account comment), and reading a Page's needs pages_read_user_content
//     (https://developers.facebook.com/docs/features-reference/page-public-content-access)
//   Threads  https://developers.facebook.com/documentation/threads/get-started/get-access-tokens-and-permissions
//     (authorize, POST /oauth/access_token → `{access_token, user_id}` without token_type),
//     https://developers.facebook.com/docs/threads/get-started/long-lived-tokens (th_exchange_token, th_refresh_token
//     only for unexpired tokens at least 24 hours old), https://developers.facebook.com/docs/threads/posts (containers,
//     carousels of 2–20, threads_publish), https://developers.facebook.com/docs/threads/troubleshooting (container
//     `status`, `error_message`), https://developers.facebook.com/docs/threads/insights, replies
//     https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies (`reply_to_id`),
//     the replies under a post https://developers.facebook.com/documentation/threads/reference/reply-management
//     (GET /{media}/replies: the top-level ones, /{media}/conversation: all depths flattened; `reverse` newest first by
//     default; `before`/`after` cursors; `hide_status`; POST /{reply}/manage_reply hide=true|false on a top-level reply
//     hides its nested ones too, https://developers.facebook.com/documentation/threads/reply-management), paged as
//     Graph pages (`paging.cursors`, `next` only while there is more: https://developers.facebook.com/docs/graph-api/results)
//   Instagram with Instagram Login  (www.instagram.com, api.instagram.com and graph.instagram.com, served under
//     `instagramUrl`) https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//     (authorize with comma-separated scopes, instagram_business_basic required; POST /oauth/access_token with
//     client_id, client_secret, grant_type=authorization_code, redirect_uri, code: a one-hour token),
//     https://developers.facebook.com/documentation/instagram-platform/reference/access_token (ig_exchange_token: 60
//     days), https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token
//     (ig_refresh_token for an unexpired long-lived token at least 24 hours old), the get-started page (GET /me with
//     user_id, username, name, account_type, profile_picture_url; `id` app-scoped), content publishing at
//     graph.instagram.com with the same containers, media_publish and comments as with Facebook Login, the account's
//     own token
// What the references' own pages leave out, replayed from the answers networks gave (each named where it is modelled):
//   Permissions  https://developers.facebook.com/docs/facebook-login/guides/permissions/request-revoke (people
//     untick permissions in the dialog; GET /me/permissions lists each as granted or declined); Threads'
//     https://developers.facebook.com/documentation/threads/troubleshooting/debug-access-token (`data.scopes`)
//   Threads replies  the get-started page: threads_manage_replies "Required for making POST calls to reply
//     endpoints", threads_read_replies for GET; the "Create Replies" page asks neither: `threadsRepliesNeedPermission`
//     plays either reading (a refusal is Graph's permission error, code 10)
//   Reels per Page  https://developers.facebook.com/docs/video-api/guides/reels-publishing#rate-limit (30 in a moving
//     24 hours, enforced when a reel is published; the error is not documented: a plain refusal here)
//   Page insights  https://developers.facebook.com/documentation/pages-api/platforminsights/page/deprecated-metrics
//     (post_impressions*, post_impressions_unique*: "invalid metric" for the whole call)
//   Instagram media it cannot fetch  code 9004 / subcode 2207052 "The media could not be fetched from this URI"
//     (https://developers.facebook.com/documentation/instagram-platform/instagram-graph-api/reference/error-codes)
//   Instagram's daily cap  code 9 / subcode 2207042 (Postiz `instagram.provider.ts` `handleErrors`)
//   Threads' Media Not Found  the body as received in nopara73/LongevityWorldCup#466 and gitroomhq/postiz-app#2047:
//     HTTP 400, code 24, subcode 4279009, `is_transient: false`, from threads_publish of a FINISHED container
//   Instagram Login's code exchange  the reference's `{data: [{access_token, user_id, permissions: "a,b"}]}`, or flat
//     with `user_id` a number beyond 2^53 (the older oauth-access-token reference's example 17841405793187218;
//     ChatbotXIO/ChatbotX#559) and `permissions` an array (Postiz `checkScopes` reads either): `instagramTokenAnswer`;
//     its refusals in the Authorization Window's shape `{error_type, code, error_message}`
// Media is FETCHED from the URL given (the service's signed URL; `mediaOrigin` maps PUBLIC_BASE_URL to where the test
// service listens) and only counted and hashed, never kept.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface MetaPerson {
  id: string;
  name: string;
}

export interface MetaPage {
  id: string;
  name: string;
  username: string;
  instagram?: { id: string; username: string; name: string };
}

interface Token {
  kind: 'short' | 'long' | 'page';
  /** The permissions granted: those asked for, less what the person declined. */
  scopes: string[];
  person: MetaPerson;
  pages: MetaPage[];
  page?: MetaPage;
  /** A Page token's user token: one read with a short-lived user token dies with it. */
  from?: string;
}

export interface FetchedMedia {
  url: string;
  bytes: number;
  sha256: string;
  contentType: string;
}

export interface PagePost {
  id: string;
  page: string;
  message?: string;
  link?: string;
  attachedMedia: string[];
  photo?: string;
}

export interface Photo {
  id: string;
  page: string;
  published: boolean;
  altText?: string;
  media: FetchedMedia;
}

export interface Reel {
  id: string;
  page: string;
  /** `file_size` of the upload, once bytes were sent. */
  fileSize?: number;
  received: number;
  /** Of the bytes received (kept only hashed). */
  hash: Hash;
  description?: string;
  /** finish calls taken for this video. */
  finishes: number;
  /** Status reads since finish: publishing completes after `processingReads` of them. */
  reads: number;
}

export interface Container {
  id: string;
  user: string;
  params: Record<string, string>;
  reads: number;
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'PUBLISHED';
  media?: FetchedMedia;
}

export interface IgMedia {
  id: string;
  user: string;
  container: string;
  caption: string;
  permalink: string;
}

export interface ThreadsProfile {
  id: string;
  username: string;
  name: string;
}

interface ThreadsToken {
  kind: 'short' | 'long';
  scopes: string[];
  profile: ThreadsProfile;
  /** On the stand-in's Threads clock (`threadsNow`). */
  issuedAt: number;
  expiresAt: number;
}

export interface ThreadsPost {
  id: string;
  user: string;
  container: string;
  text: string;
  permalink: string;
  /** The post this one replies to (`reply_to_id`): a thread's part, a first comment, or a reply another profile left. */
  replyTo?: string;
  /** Its author's username, and when it was published (on the Threads clock). */
  username: string;
  publishedAt: number;
  /** The reference's `hide_status`: HIDDEN once the root post's profile hid it, COVERED where Threads covers it. */
  hideStatus: 'NOT_HUSHED' | 'UNHUSHED' | 'HIDDEN' | 'COVERED';
}

export interface InstagramLoginAccount {
  /** The professional account's id (`user_id`), which publishing is called with. */
  userId: string;
  /** The app-scoped id (`id`). */
  appScopedId: string;
  username: string;
  name: string;
}

interface InstagramToken {
  kind: 'short' | 'long';
  scopes: string[];
  account: InstagramLoginAccount;
  /** On the stand-in's Instagram clock (`instagramNow`). */
  issuedAt: number;
  expiresAt: number;
}

export interface GraphComment {
  id: string;
  /** The post, video or IG media commented on (a reply's too). */
  on: string;
  /** Who commented: the Page, the Instagram account, or another person (`commentAs`). */
  from: string;
  /** How Meta names the author: a Facebook name, an Instagram username. */
  author?: string;
  message: string;
  /** A reply's top-level comment: Meta threads comments two levels deep. */
  parent?: string;
  createdAt: number;
  /** Hidden by the account (moderation): still listed to it, with `is_hidden` / `hidden`. */
  hidden?: boolean;
}

/** Where a comment goes: the post, video or IG media (`root`), under a top-level comment (`parent`) for a reply. */
interface Thread {
  root: string;
  parent?: string;
  media?: IgMedia;
  /** The Page of the post, or of the Instagram account (Facebook Login). */
  page?: string;
}

/** Someone else on Facebook or Instagram who comments (`commentAs`). */
export interface Commenter {
  id: string;
  /** A Facebook name, or an Instagram username. */
  name: string;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

export interface MetaStandInOptions {
  redirectUris: string[];
  version?: string;
  /** Status reads a container answers IN_PROGRESS before FINISHED (and a Page video `processing` before ready). */
  processingReads?: number;
}

export class MetaStandIn {
  readonly clientId = String(100_000_000 + Math.floor(Math.random() * 1e8));
  readonly clientSecret = randomBytes(16).toString('hex');
  readonly version: string;
  url = '';
  /** Who signs in next, and the Pages they grant. */
  person: MetaPerson = { id: '10158', name: 'Alice Moreau' };
  pages: MetaPage[] = [];
  /** Where media URLs under `from` (PUBLIC_BASE_URL) are fetched from (the test service). */
  mediaOrigin: { from: string; to: string } | undefined;
  /** The next answers are this throttling error, with `estimated_time_to_regain_access` in the usage header. */
  throttle: { code: number; minutes: number; calls: number } | undefined;
  /** media_publish creates the media, then holds its answer this long (a worker killed meanwhile never learns of it). */
  holdPublishMs = 0;
  processingReads: number;
  readonly requests: { method: string; path: string; params: Record<string, string>; authorization?: string }[] = [];
  readonly posts = new Map<string, PagePost>();
  readonly photos = new Map<string, Photo>();
  readonly videos = new Map<string, { id: string; page: string; description?: string; reads: number; media: FetchedMedia }>();
  readonly reels = new Map<string, Reel>();
  /** The next reel finish calls answer a Graph error (Meta's outage), leaving the reel unpublished. */
  failReelFinishes = 0;
  readonly containers = new Map<string, Container>();
  readonly igMedia = new Map<string, IgMedia>();
  readonly comments = new Map<string, GraphComment>();
  /** The most comments one answer of a comments or replies edge holds, whatever `limit` asks (the paging guide: "may return fewer"). */
  commentPageSize = 25;
  /** Comments are refused (the app lacks the comment permission for this Page: #200) while set. */
  refuseComments = false;
  /** The next this many comments are made, but answered with Meta's unexpected error (code 2), as if the answer were lost. */
  lostCommentAnswers = 0;
  /** Permissions the next person to log in unticks in the dialog (Facebook Login; Threads). */
  declinedPermissions: string[] = [];
  threadsDeclinedPermissions: string[] = [];
  /** Replies need threads_manage_replies (and reading them threads_read_replies), as the get-started page says. */
  threadsRepliesNeedPermission = true;
  /** The next this many threads_publish calls answer Threads' Media Not Found (24/4279009) though the container is FINISHED. */
  threadsMediaNotFound = 0;
  /** How many replies a page of /replies and /conversation holds (the reference names no size: a switch). */
  threadsRepliesPageSize = 25;
  /** Instagram's media_publish answers the daily cap (9/2207042) while set: another app used the account's posts up. */
  instagramDailyCapReached = false;
  /** Reels a Page may publish in a moving 24 hours, and when each of its reels was published. */
  reelsPerDay = 30;
  readonly reelsPublishedAt = new Map<string, number[]>();
  /** The Threads app of the same Meta app: its own id and secret. */
  readonly threadsClientId = String(700_000_000 + Math.floor(Math.random() * 1e8));
  readonly threadsClientSecret = randomBytes(16).toString('hex');
  /** Who signs in to Threads next. */
  threadsProfile: ThreadsProfile = { id: '25910', username: 'alice.moreau', name: 'Alice Moreau' };
  /** How far the Threads clock is ahead of the real one (tokens age, expire and become refreshable with it). */
  threadsClockAheadMs = 0;
  readonly threadsContainers = new Map<string, Container>();
  readonly threadsPosts = new Map<string, ThreadsPost>();
  readonly #threadsCodes = new Map<string, { redirectUri: string; profile: ThreadsProfile; scopes: string[] }>();
  readonly #threadsTokens = new Map<string, ThreadsToken>();
  /** Instagram Login's app of the same Meta app: its own id and secret. */
  readonly instagramClientId = String(900_000_000 + Math.floor(Math.random() * 1e8));
  readonly instagramClientSecret = randomBytes(16).toString('hex');
  /** Who logs in to Instagram next (a professional account without a Page), and the permissions they untick. */
  instagramAccount: InstagramLoginAccount = { userId: '17841405793187218', appScopedId: '7364810', username: 'moreau.bakery', name: 'Moreau Bakery' };
  instagramDeclinedPermissions: string[] = [];
  /** The shape of the code exchange's answer (see above). */
  instagramTokenAnswer: 'data' | 'flat' = 'data';
  /** How far the Instagram clock is ahead of the real one (tokens age, expire and become refreshable with it). */
  instagramClockAheadMs = 0;
  readonly #instagramCodes = new Map<string, { redirectUri: string; account: InstagramLoginAccount; scopes: string[] }>();
  readonly #instagramTokens = new Map<string, InstagramToken>();
  /** media_publish calls refused because their container was not FINISHED. */
  earlyPublishes = 0;
  readonly #redirectUris: string[];
  readonly #codes = new Map<string, { redirectUri: string; scope: string; person: MetaPerson; pages: MetaPage[] }>();
  readonly #tokens = new Map<string, Token>();
  readonly #dead = new Set<string>();
  readonly #server: Server;
  #sequence = 1000;
  #lastCommentAt = 0;

  private constructor(options: MetaStandInOptions) {
    this.#redirectUris = options.redirectUris;
    this.version = options.version ?? 'v23.0';
    this.processingReads = options.processingReads ?? 1;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  }

  static async start(options: MetaStandInOptions): Promise<MetaStandIn> {
    const standIn = new MetaStandIn(options);
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`;
    return standIn;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  signInAs(person: MetaPerson, pages: MetaPage[]): void {
    this.person = person;
    this.pages = pages;
  }

  /** Short-lived user tokens end (an hour or two after the login), with the Page tokens read with them. */
  expireShortLivedTokens(): void {
    for (const [token, info] of this.#tokens) if (info.kind === 'short' || (info.from && this.#tokens.get(info.from)?.kind === 'short')) this.#dead.add(token);
  }

  /** Every token is refused from now on (190/463: the person changed their password, or removed the app). */
  expireAllTokens(): void {
    for (const token of [...this.#tokens.keys(), ...this.#instagramTokens.keys()]) this.#dead.add(token);
  }

  /** The test service's settings for both of Meta's apps here: Facebook Login's (Pages, Instagram) and Instagram Login's. */
  get appSettings(): Record<string, string> {
    return {
      FACEBOOK_CLIENT_ID: this.clientId,
      FACEBOOK_CLIENT_SECRET: this.clientSecret,
      FACEBOOK_API_BASE_URL: this.url,
      FACEBOOK_AUTH_BASE_URL: this.url,
      FACEBOOK_UPLOAD_BASE_URL: this.reelUploadUrl,
      INSTAGRAM_CLIENT_ID: this.instagramClientId,
      INSTAGRAM_CLIENT_SECRET: this.instagramClientSecret,
      INSTAGRAM_API_BASE_URL: this.instagramUrl,
      INSTAGRAM_AUTH_BASE_URL: this.instagramUrl,
      INSTAGRAM_TOKEN_BASE_URL: this.instagramUrl,
    };
  }

  /** INSTAGRAM_AUTH_BASE_URL, INSTAGRAM_TOKEN_BASE_URL and INSTAGRAM_API_BASE_URL: www., api. and graph.instagram.com. */
  get instagramUrl(): string {
    return `${this.url}/instagram`;
  }

  get instagramNow(): number {
    return Date.now() + this.instagramClockAheadMs;
  }

  /** THREADS_API_BASE_URL and THREADS_AUTH_BASE_URL: graph.threads.net and threads.net. */
  /** FACEBOOK_UPLOAD_BASE_URL: rupload.facebook.com. */
  get reelUploadUrl(): string {
    return `${this.url}/rupload`;
  }

  get threadsUrl(): string {
    return `${this.url}/threads`;
  }

  /** The service's settings for the operator's Threads app here: THREADS_CLIENT_ID, _CLIENT_SECRET, _API_BASE_URL, _AUTH_BASE_URL. */
  get threadsSettings(): Record<string, string> {
    return {
      THREADS_CLIENT_ID: this.threadsClientId,
      THREADS_CLIENT_SECRET: this.threadsClientSecret,
      THREADS_API_BASE_URL: this.threadsUrl,
      THREADS_AUTH_BASE_URL: this.threadsUrl,
    };
  }

  get threadsNow(): number {
    return Date.now() + this.threadsClockAheadMs;
  }

  #id(): string {
    return String(++this.#sequence) + String(Math.floor(Math.random() * 1e6));
  }

  #issue(info: Token): string {
    const token = `EAA${randomBytes(18).toString('base64url')}`;
    this.#tokens.set(token, info);
    return token;
  }

  #json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
  }

  /** Graph's error answer. */
  #error(res: ServerResponse, status: number, code: number, message: string, subcode?: number, headers: Record<string, string> = {}): void {
    const type = code === 190 || code === 100 ? 'OAuthException' : 'GraphMethodException';
    const error = { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(8).toString('base64url') };
    this.#json(res, status, { error }, headers);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/rupload/')) return this.#rupload(req, url.pathname.slice('/rupload'.length), res);
    let body = '';
    for await (const chunk of req) body += chunk;
    const params = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(body)) };
    if (url.pathname.startsWith('/threads/')) return this.#threads(req, url.pathname.slice('/threads'.length), params, res);
    if (url.pathname.startsWith('/instagram/')) return this.#instagram(req, url.pathname.slice('/instagram'.length), params, res);
    const prefix = `/${this.version}`;
    if (!url.pathname.startsWith(`${prefix}/`)) return this.#error(res, 400, 2635, `Unknown or missing API version (${this.version} expected)`);
    const path = url.pathname.slice(prefix.length);
    this.requests.push({ method: req.method ?? 'GET', path, params, authorization: req.headers.authorization });
    if (path === '/dialog/oauth' && req.method === 'GET') return this.#dialog(params, res);
    if (path === '/oauth/access_token') return this.#accessToken(req.method ?? 'GET', params, res);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params.access_token ?? '';
    const info = this.#tokens.get(token);
    if (!info || this.#dead.has(token)) {
      return this.#error(res, 400, 190, 'Error validating access token: Session has expired.', 463, {
        'www-authenticate': 'OAuth "Facebook Platform" "invalid_token" "Error validating access token: Session has expired."',
      });
    }
    if (this.#throttled(res, info.page?.id ?? info.person.id, 'pages')) return;
    await this.#route(req.method ?? 'GET', path.split('/').filter(Boolean), params, info, res);
  }

  /** Answers the throttling error (Meta's code, the wait in `X-Business-Use-Case-Usage`) while `throttle` has calls left. */
  #throttled(res: ServerResponse, id: string, type: string): boolean {
    if (!this.throttle || this.throttle.calls <= 0) return false;
    this.throttle.calls--;
    const usage = { [id]: [{ type, call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: this.throttle.minutes }] };
    this.#error(res, 400, this.throttle.code, 'User request limit reached', undefined, { 'x-business-use-case-usage': JSON.stringify(usage) });
    return true;
  }

  #dialog(params: Record<string, string>, res: ServerResponse): void {
    const redirectUri = params.redirect_uri ?? '';
    if (params.client_id !== this.clientId || !this.#redirectUris.includes(redirectUri)) {
      return void res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end("URL blocked: this redirect URI is not whitelisted in the app's Client OAuth Settings");
    }
    const back = new URL(redirectUri);
    if (params.state) back.searchParams.set('state', params.state);
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { redirectUri, scope: params.scope ?? '', person: { ...this.person }, pages: [...this.pages] });
    back.searchParams.set('code', code);
    back.hash = '_=_';
    res.writeHead(302, { location: back.href }).end();
  }

  #accessToken(method: string, params: Record<string, string>, res: ServerResponse): void {
    if (params.client_id !== this.clientId || params.client_secret !== this.clientSecret) {
      return this.#error(res, 400, 1, 'Error validating client secret.');
    }
    if (params.grant_type === 'fb_exchange_token') {
      const short = this.#tokens.get(params.fb_exchange_token ?? '');
      if (method !== 'GET' || !short || this.#dead.has(params.fb_exchange_token ?? '') || short.kind === 'page') {
        return this.#error(res, 400, 190, 'Invalid OAuth access token.');
      }
      const access_token = this.#issue({ ...short, kind: 'long' });
      return this.#json(res, 200, { access_token, token_type: 'bearer', expires_in: 5_183_944 });
    }
    const issued = this.#codes.get(params.code ?? '');
    this.#codes.delete(params.code ?? '');
    if (!issued) return this.#error(res, 400, 100, 'This authorization code has been used.', 36009);
    if (issued.redirectUri !== params.redirect_uri)
      return this.#error(res, 400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical.', 36008);
    const scopes = issued.scope.split(',').filter((scope) => scope && !this.declinedPermissions.includes(scope));
    const access_token = this.#issue({ kind: 'short', scopes, person: issued.person, pages: issued.pages });
    this.#json(res, 200, { access_token, token_type: 'bearer', expires_in: 5_400 });
  }

  async #route(method: string, parts: string[], params: Record<string, string>, token: Token, res: ServerResponse): Promise<void> {
    const [node, edge] = parts;
    const route = `${method} ${edge ?? ''}`;
    if (node === 'me' && !edge && method === 'GET') return this.#json(res, 200, { id: token.person.id, name: token.person.name });
    if (node === 'me' && edge === 'accounts' && method === 'GET') return this.#accounts(params, token, res);
    if (node === 'me' && edge === 'permissions' && method === 'GET') {
      const asked = [...new Set([...token.scopes, ...this.declinedPermissions])];
      return this.#json(res, 200, { data: asked.map((permission) => ({ permission, status: token.scopes.includes(permission) ? 'granted' : 'declined' })) });
    }
    const page = this.pages.find((candidate) => candidate.id === node);
    const igPage = this.pages.find((candidate) => candidate.instagram?.id === node);
    if (page || igPage) {
      if (token.kind !== 'page' || token.page?.id !== (page ?? igPage)!.id) {
        return this.#error(res, 403, 200, 'Requires pages_manage_posts permission to manage the object: a Page access token is required');
      }
    }
    if (page && route === 'POST feed') return this.#feedPost(page, params, res);
    if (page && route === 'GET feed')
      return this.#latest(
        res,
        [...this.posts.values()].filter((post) => post.page === page.id),
        (post) => ({ id: post.id, message: post.message }),
      );
    if (page && route === 'POST photos') return this.#photo(page, params, res);
    if (page && route === 'POST videos') return this.#video(page, params, res);
    if (page && route === 'POST video_reels') return this.#videoReels(page, params, res);
    if (page && route === 'GET videos')
      return this.#latest(
        res,
        [...this.videos.values()].filter((video) => video.page === page.id),
        (video) => ({ id: video.id, description: video.description }),
      );
    if (igPage && route === 'POST media') return this.#container(igPage.instagram!.id, params, res);
    if (igPage && route === 'POST media_publish') return this.#publish(igPage.instagram!.id, params, res);
    if (igPage && route === 'GET media')
      return this.#latest(
        res,
        [...this.igMedia.values()].filter((media) => media.user === node),
        (media) => ({ id: media.id, caption: media.caption }),
      );
    if (node && (route === 'POST comments' || route === 'POST replies')) return this.#comment(node, edge!, params, token, res);
    if (node && (route === 'GET comments' || route === 'GET replies')) return this.#commentsOn(node, edge!, params, token, res);
    if (node && route === 'GET insights') return this.#insights(node, params, res);
    if (node && route === 'GET ') return this.#object(node, res);
    this.#error(
      res,
      400,
      100,
      `Unsupported ${method} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      33,
    );
  }

  #accounts(params: Record<string, string>, token: Token, res: ServerResponse): void {
    if (token.kind === 'page') return this.#error(res, 400, 100, 'Tried accessing nonexisting field (accounts) on node type (Page)');
    const userToken = [...this.#tokens.entries()].find(([, info]) => info === token)![0];
    // Two Pages an answer, so that paging is followed.
    const start = Number(params.after ?? 0);
    const granted = token.pages.slice(start, start + 2);
    const data = granted.map((page) => ({
      id: page.id,
      name: page.name,
      username: page.username,
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
      access_token: this.#issue({ kind: 'page', scopes: token.scopes, person: token.person, pages: token.pages, page, from: userToken }),
      ...(page.instagram ? { instagram_business_account: { id: page.instagram.id, username: page.instagram.username, name: page.instagram.name } } : {}),
    }));
    const more = start + 2 < token.pages.length;
    this.#json(res, 200, {
      data,
      paging: {
        cursors: { before: String(start), after: String(start + 2) },
        ...(more ? { next: `${this.url}/${this.version}/me/accounts?after=${start + 2}` } : {}),
      },
    });
  }

  #latest<T>(res: ServerResponse, items: T[], view: (item: T) => object): void {
    this.#json(res, 200, { data: items.reverse().slice(0, 10).map(view) });
  }

  async #fetch(url: string | undefined): Promise<FetchedMedia | string> {
    if (!url || !URL.canParse(url)) return 'The media could not be fetched from this URI: the URI is missing or invalid.';
    const reached = this.mediaOrigin && url.startsWith(this.mediaOrigin.from) ? this.mediaOrigin.to + url.slice(this.mediaOrigin.from.length) : url;
    const answer = await fetch(reached).catch(() => null);
    if (!answer?.ok) return `The media could not be fetched from this URI: ${url} (${answer?.status ?? 'no answer'}).`;
    const hash = createHash('sha256');
    let bytes = 0;
    let start = Buffer.alloc(0);
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (start.length < 16) start = Buffer.concat([start, Buffer.from(chunk)]).subarray(0, 16);
    }
    return {
      url,
      bytes,
      sha256: hash.digest('hex'),
      contentType: start.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))
        ? 'image/jpeg'
        : start.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
          ? 'image/png'
          : (answer.headers.get('content-type') ?? ''),
    };
  }

  #feedPost(page: MetaPage, params: Record<string, string>, res: ServerResponse): void {
    const attachedMedia = Object.entries(params)
      .filter(([name]) => /^attached_media\[\d+\]$/.test(name))
      .map(([, value]) => (JSON.parse(value) as { media_fbid: string }).media_fbid);
    if (!params.message && !params.link && !attachedMedia.length)
      return this.#error(res, 400, 100, 'Invalid parameter: message, link or attached_media is required');
    for (const id of attachedMedia) {
      const photo = this.photos.get(id);
      if (!photo || photo.page !== page.id || photo.published)
        return this.#error(res, 400, 100, `Invalid parameter: attached_media ${id} is not an unpublished photo of this Page`);
    }
    const post: PagePost = { id: `${page.id}_${this.#id()}`, page: page.id, message: params.message, link: params.link, attachedMedia };
    this.posts.set(post.id, post);
    this.#json(res, 200, { id: post.id });
  }

  async #photo(page: MetaPage, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const media = await this.#fetch(params.url);
    if (typeof media === 'string') return this.#error(res, 400, 324, `Missing or invalid image file. ${media}`);
    const photo: Photo = { id: this.#id(), page: page.id, published: params.published !== 'false', altText: params.alt_text_custom, media };
    this.photos.set(photo.id, photo);
    if (!photo.published) return this.#json(res, 200, { id: photo.id });
    const post: PagePost = { id: `${page.id}_${photo.id}`, page: page.id, message: params.message ?? params.caption, attachedMedia: [], photo: photo.id };
    this.posts.set(post.id, post);
    this.#json(res, 200, { id: photo.id, post_id: post.id });
  }

  async #video(page: MetaPage, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const media = await this.#fetch(params.file_url);
    if (typeof media === 'string') return this.#error(res, 400, 351, `There was a problem with your video file. ${media}`);
    const id = this.#id();
    this.videos.set(id, { id, page: page.id, description: params.description, reads: 0, media });
    this.#json(res, 200, { id });
  }

  #videoReels(page: MetaPage, params: Record<string, string>, res: ServerResponse): void {
    if (params.upload_phase === 'start') {
      const reel: Reel = { id: this.#id(), page: page.id, received: 0, hash: createHash('sha256'), finishes: 0, reads: 0 };
      this.reels.set(reel.id, reel);
      return this.#json(res, 200, { video_id: reel.id, upload_url: `${this.reelUploadUrl}/video-upload/${this.version}/${reel.id}` });
    }
    if (params.upload_phase !== 'finish') return this.#error(res, 400, 100, 'Invalid parameter: upload_phase must be start or finish');
    const reel = this.reels.get(params.video_id ?? '');
    if (reel?.page !== page.id) return this.#error(res, 400, 100, 'Invalid parameter: video_id');
    if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(params.video_state ?? '')) return this.#error(res, 400, 100, 'Invalid parameter: video_state');
    if (reel.fileSize === undefined || reel.received < reel.fileSize)
      return this.#error(res, 400, 6000, 'There was a problem uploading your video file.', 1363130);
    if (this.failReelFinishes > 0) {
      this.failReelFinishes--;
      return this.#error(res, 500, 2, 'An unexpected error has occurred. Please retry your request later.');
    }
    const published = (this.reelsPublishedAt.get(page.id) ?? []).filter((at) => at > Date.now() - dayMs);
    if (reel.finishes === 0 && published.length >= this.reelsPerDay)
      return this.#error(res, 400, 100, `The Page has published ${this.reelsPerDay} reels through the API in the last 24 hours.`);
    if (reel.finishes === 0) this.reelsPublishedAt.set(page.id, [...published, Date.now()]);
    reel.finishes++;
    reel.description = params.description;
    this.#json(res, 200, { success: true });
  }

  #reelStatus(reel: Reel): object {
    const uploaded = reel.fileSize !== undefined && reel.received === reel.fileSize;
    const published = reel.finishes > 0 && ++reel.reads > this.processingReads;
    return {
      video_status: published ? 'ready' : reel.finishes > 0 ? 'processing' : 'upload_complete',
      uploading_phase: { status: uploaded ? 'complete' : reel.received ? 'in_progress' : 'not_started', bytes_transferred: reel.received },
      processing_phase: { status: reel.finishes === 0 ? 'not_started' : published ? 'complete' : 'in_progress' },
      publishing_phase: { status: published ? 'complete' : 'not_started', ...(published ? { publish_status: 'published' } : {}) },
    };
  }

  /** rupload.facebook.com: the bytes of a reel, counted and hashed, from `offset` (which must be what it has) on. */
  async #rupload(req: IncomingMessage, path: string, res: ServerResponse): Promise<void> {
    const refuse = (status: number, type: string, message: string) => {
      req.resume();
      this.#json(res, status, { debug_info: { retriable: false, type, message } });
    };
    const [, kind, version, id] = path.split('/');
    const reel = this.reels.get(id ?? '');
    if (req.method !== 'POST' || kind !== 'video-upload' || version !== this.version || !reel) return refuse(404, 'NotFoundError', 'Unknown upload session');
    const token = this.#tokens.get(/^OAuth (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (token?.kind !== 'page' || token.page?.id !== reel.page)
      return refuse(401, 'AuthError', 'Invalid OAuth access token: send the Page token as Authorization: OAuth');
    const offset = Number(req.headers.offset);
    const fileSize = Number(req.headers.file_size);
    if (!Number.isInteger(offset) || offset < 0)
      return refuse(400, 'ParameterValidationError', 'HeaderValuePredicate: Header Offset not convertable to unsigned long');
    if (!Number.isInteger(fileSize) || fileSize < 1)
      return refuse(400, 'ParameterValidationError', 'HeaderValuePredicate: Header file_size not convertable to unsigned long');
    if (offset !== reel.received || (reel.fileSize !== undefined && fileSize !== reel.fileSize))
      return refuse(400, 'ProcessingFailedError', `Offset ${offset} does not continue the ${reel.received} bytes received`);
    reel.fileSize = fileSize;
    for await (const chunk of req) {
      reel.hash.update(chunk);
      reel.received += chunk.length;
    }
    if (reel.received > fileSize) return refuse(400, 'ProcessingFailedError', 'More bytes than file_size');
    this.#json(res, 200, { success: true });
  }

  async #container(user: string, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const container: Container = { id: this.#id(), user, params, reads: 0, status: 'IN_PROGRESS' };
    if (params.media_type === 'CAROUSEL') {
      const children = (params.children ?? '').split(',').filter(Boolean);
      if (children.length < 2 || children.length > 10) return this.#error(res, 400, 100, 'Invalid parameter: a carousel has 2 to 10 children', 2207004);
      for (const child of children) {
        const item = this.containers.get(child);
        if (item?.params.is_carousel_item !== 'true' || item.status !== 'FINISHED')
          return this.#error(res, 400, 100, `Invalid parameter: child ${child} is not a finished carousel item`);
      }
    } else {
      const url = params.image_url ?? params.video_url;
      if (!url) return this.#error(res, 400, 100, 'The parameter image_url or video_url is required.', 2207053);
      const media = await this.#fetch(url);
      if (typeof media === 'string') return this.#error(res, 400, 9004, media, 2207052);
      if (params.image_url && media.contentType !== 'image/jpeg') {
        return this.#error(res, 400, 9004, 'Only photo or video can be accepted as media type: the image is not a JPEG.', 2207005);
      }
      container.media = media;
    }
    this.containers.set(container.id, container);
    this.#json(res, 200, { id: container.id });
  }

  async #publish(user: string, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const container = this.containers.get(params.creation_id ?? '');
    if (!container || container.user !== user) return this.#error(res, 400, 100, 'Invalid parameter: creation_id');
    if (container.status !== 'FINISHED') {
      this.earlyPublishes++;
      return this.#error(res, 400, 9007, 'The media is not ready for publishing, please wait for a moment', 2207027);
    }
    if (this.instagramDailyCapReached)
      return this.#error(res, 400, 9, 'You have reached the maximum number of posts that is allowed to be published by Content Publishing API.', 2207042);
    container.status = 'PUBLISHED';
    const id = this.#id();
    this.igMedia.set(id, {
      id,
      user,
      container: container.id,
      caption: container.params.caption ?? '',
      permalink: `https://www.instagram.com/p/${id.slice(-11)}/`,
    });
    if (this.holdPublishMs) await sleep(this.holdPublishMs);
    this.#json(res, 200, { id });
  }

  /** The post, video or IG media a comment (or a reply) is on, and where its replies go; undefined for an unknown id. */
  #thread(id: string): Thread | undefined {
    const comment = this.comments.get(id);
    const root = comment?.on ?? id;
    const media = this.igMedia.get(root);
    const page =
      this.posts.get(root)?.page ?? this.videos.get(root)?.page ?? (media && this.pages.find((candidate) => candidate.instagram?.id === media.user)?.id);
    if (!page && !media) return undefined;
    // Replies to a reply go under its top-level comment (IG Comment Replies, Limitations; Facebook's `parent` is the top-level comment).
    return { root, ...(comment ? { parent: comment.parent ?? comment.id } : {}), ...(media ? { media } : {}), ...(page ? { page } : {}) };
  }

  /**
   * The thread of `id` where its `edge` is one: Facebook's comments are at /comments (of a post or a comment),
   * Instagram's at /comments of a media and /replies of a comment. Otherwise Graph's refusal is answered.
   */
  #threadAt(id: string, edge: string, method: 'get' | 'post', res: ServerResponse): Thread | undefined {
    const thread = this.#thread(id);
    if (thread && (edge === 'replies') === (thread.media !== undefined && thread.parent !== undefined)) return thread;
    const why = 'does not exist, cannot be loaded due to missing permissions, or does not support this operation.';
    this.#error(res, 400, 100, `Unsupported ${method} request. Object with ID '${id}' ${why}`, 33);
    return undefined;
  }

  /** A comment on a Page's post or video, or an Instagram account's media, or a reply to one, by that Page or account. */
  #comment(id: string, edge: string, params: Record<string, string>, token: Token, res: ServerResponse): void {
    const thread = this.#threadAt(id, edge, 'post', res);
    if (!thread) return;
    if (token.kind !== 'page' || token.page?.id !== thread.page)
      return this.#error(res, 403, 200, 'Requires pages_manage_engagement permission to manage the object: a Page access token is required');
    const from = thread.media ? thread.media.user : thread.page!;
    this.#addComment(thread, from, thread.media ? this.#id() : `${thread.root.split('_').at(-1)}_${this.#id()}`, params, res);
  }

  /** A comment `from` an account in `thread`, refused or its answer lost as the test asks. */
  #addComment(thread: { root: string; parent?: string }, from: string, id: string, params: Record<string, string>, res: ServerResponse): void {
    if (this.refuseComments) return this.#error(res, 403, 200, '(#200) Permissions error: the app may not comment as this account');
    if (!params.message?.trim()) return this.#error(res, 400, 100, '(#100) The parameter message is required');
    // "You cannot reply to hidden comments" (IG Comment Replies, Limitations); the refusal's text is not documented.
    if (thread.parent && this.comments.get(thread.parent)?.hidden) return this.#error(res, 400, 100, '(#100) Cannot reply to a hidden comment');
    const comment: GraphComment = {
      id,
      on: thread.root,
      from,
      message: params.message,
      createdAt: this.#commentTime(),
      ...(thread.parent ? { parent: thread.parent } : {}),
    };
    this.comments.set(comment.id, comment);
    if (this.lostCommentAnswers > 0) {
      this.lostCommentAnswers--;
      return this.#error(res, 500, 2, 'An unexpected error has occurred. Please retry your request later.');
    }
    this.#json(res, 200, { id: comment.id });
  }

  /**
   * Another person comments on `on` (a Page post, an IG media), or replies to the comment `on`, as they would in
   * Facebook's or Instagram's app (the API lets no one but the account comment there). Answers the comment.
   */
  commentAs(person: Commenter, on: string, message: string, options: { hidden?: boolean } = {}): GraphComment {
    const thread = this.#thread(on);
    if (!thread) throw new Error(`nothing to comment on at ${on}`);
    const id = thread.media ? this.#id() : `${thread.root.split('_').at(-1)}_${this.#id()}`;
    const comment: GraphComment = {
      id,
      on: thread.root,
      from: person.id,
      author: person.name,
      message,
      createdAt: this.#commentTime(),
      ...(thread.parent ? { parent: thread.parent } : {}),
      ...(options.hidden ? { hidden: true } : {}),
    };
    this.comments.set(id, comment);
    return comment;
  }

  /** Graph's times are to the second: each comment is made a second after the last at least, so its time orders it. */
  #commentTime(): number {
    this.#lastCommentAt = Math.max(Date.now(), this.#lastCommentAt + 1000);
    return this.#lastCommentAt;
  }

  /** The comment is deleted (by its author): gone from every list, its id unknown from now on, with its replies. */
  deleteComment(id: string): void {
    for (const comment of this.comments.values()) if (comment.parent === id) this.comments.delete(comment.id);
    this.comments.delete(id);
  }

  /**
   * A comments edge, in the shape of the object's network, cursor-paged (https://developers.facebook.com/docs/graph-api/results:
   * `paging.cursors.{before, after}`, `paging.next` only while there is more):
   *   a Page post's or video's /comments  top-level comments only, unless `filter=stream` (every comment, replies
   *     with their `parent`); `order` chronological (the default) or reverse_chronological (object/comments reference)
   *   a Facebook comment's /comments  its replies
   *   an IG media's /comments  its top-level comments, with `replies{…}` as a nested edge (ig-media/comments reference;
   *     the order is not documented: oldest first here), an IG comment's /replies its replies (ig-comment/replies)
   * Hidden comments are listed to the account with `is_hidden` (Facebook) or `hidden` (Instagram) true (the comment
   * and ig-comment references); deleted ones are gone ("You cannot get replies to a comment that has been deleted").
   */
  #commentsOn(id: string, edge: string, params: Record<string, string>, token: { scopes: string[] }, res: ServerResponse): void {
    const thread = this.#threadAt(id, edge, 'get', res);
    if (!thread) return;
    // People's comments on a Page are read with pages_read_user_content (beside pages_read_engagement), or the app
    // review's Page Public Content Access (https://developers.facebook.com/docs/features-reference/page-public-content-access);
    // a permission missing is Graph's code 10 (https://developers.facebook.com/docs/graph-api/guides/error-handling).
    if (!thread.media && !token.scopes.includes('pages_read_user_content'))
      return this.#error(res, 403, 10, '(#10) This endpoint requires the pages_read_user_content permission or the Page Public Content Access feature');
    const ofComment = thread.parent !== undefined;
    const all = [...this.comments.values()].filter((comment) => comment.on === thread.root);
    const listed = ofComment
      ? all.filter((comment) => comment.parent === id)
      : params.filter === 'stream' && !thread.media
        ? all
        : all.filter((comment) => comment.parent === undefined);
    if (params.order === 'reverse_chronological') listed.reverse();
    const fields = fieldsOf(params.fields, thread.media ? ['id', 'text', 'timestamp'] : ['created_time', 'from', 'message', 'id']);
    const view = (comment: GraphComment, asked: Fields): Record<string, unknown> =>
      thread.media ? this.#igComment(comment, asked) : this.#facebookComment(comment, asked);
    this.#json(
      res,
      200,
      this.#paged(listed, params, (comment) => view(comment, fields), `${this.url}/${this.version}/${id}/${edge}`),
    );
  }

  /** One page of `items` from the `after` cursor (an item's id), `limit` long at most `commentPageSize`. */
  #paged<T extends { id: string }>(items: T[], params: Record<string, string>, view: (item: T) => unknown, next: string): object {
    const start = params.after ? items.findIndex((item) => item.id === Buffer.from(params.after!, 'base64url').toString()) + 1 : 0;
    const size = Math.min(Number(params.limit) || 25, this.commentPageSize);
    const page = items.slice(start, start + size);
    const cursor = (item: T | undefined) => Buffer.from(item?.id ?? '').toString('base64url');
    const more = start + size < items.length;
    const after = cursor(page.at(-1));
    return {
      data: page.map(view),
      ...(page.length ? { paging: { cursors: { before: cursor(page[0]), after }, ...(more ? { next: `${next}?after=${after}&limit=${size}` } : {}) } } : {}),
    };
  }

  /** https://developers.facebook.com/docs/graph-api/reference/comment (the fields asked). */
  #facebookComment(comment: GraphComment, asked: Fields): Record<string, unknown> {
    const page = this.pages.find((candidate) => candidate.id === comment.from);
    const values: Record<string, unknown> = {
      id: comment.id,
      message: comment.message,
      created_time: graphTime(comment.createdAt),
      from: { id: comment.from, name: comment.author ?? page?.name },
      permalink_url: `https://www.facebook.com/${comment.on.replace('_', '/posts/')}?comment_id=${comment.id.split('_').at(-1)}`,
      is_hidden: comment.hidden ?? false,
      can_reply_privately: !page,
      ...(comment.parent ? { parent: { id: comment.parent } } : {}),
    };
    return pick(values, asked);
  }

  /** https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment (the fields asked). */
  #igComment(comment: GraphComment, asked: Fields): Record<string, unknown> {
    const username = comment.author ?? this.#igUsername(comment.from);
    const values: Record<string, unknown> = {
      id: comment.id,
      text: comment.message,
      timestamp: graphTime(comment.createdAt),
      username,
      from: { id: comment.from, username },
      like_count: 0,
      hidden: comment.hidden ?? false,
      ...(comment.parent ? { parent_id: comment.parent } : {}),
    };
    const replies = asked.get('replies');
    if (replies && !comment.parent) {
      const under = [...this.comments.values()].filter((reply) => reply.parent === comment.id);
      if (under.length)
        values.replies = this.#paged(under, {}, (reply) => this.#igComment(reply, replies), `${this.url}/${this.version}/${comment.id}/replies`);
    }
    return pick(values, asked);
  }

  #igUsername(id: string): string | undefined {
    const instagramLogin = [...this.#instagramTokens.values()].find((token) => token.account.userId === id)?.account;
    return this.pages.find((page) => page.instagram?.id === id)?.instagram?.username ?? instagramLogin?.username;
  }

  #object(id: string, res: ServerResponse): void {
    const container = this.containers.get(id);
    if (container) {
      if (container.status === 'IN_PROGRESS' && ++container.reads > this.processingReads) container.status = 'FINISHED';
      return this.#json(res, 200, {
        id,
        status_code: container.status,
        status: container.status === 'IN_PROGRESS' ? 'In Progress' : 'Finished: Media has been uploaded and it is ready to be published.',
      });
    }
    const media = this.igMedia.get(id);
    if (media) return this.#json(res, 200, { id, permalink: media.permalink });
    const comment = this.comments.get(id);
    if (comment && !this.igMedia.has(comment.on)) return this.#json(res, 200, this.#facebookComment(comment, fieldsOf('id,permalink_url', [])));
    const post = this.posts.get(id);
    if (post) return this.#json(res, 200, { id, permalink_url: `https://www.facebook.com/${post.page}/posts/${id.split('_')[1]}` });
    const reel = this.reels.get(id);
    if (reel) return this.#json(res, 200, { id, status: this.#reelStatus(reel), permalink_url: `/reel/${id}/` });
    const video = this.videos.get(id);
    if (video) {
      const ready = ++video.reads > this.processingReads;
      return this.#json(res, 200, { id, status: { video_status: ready ? 'ready' : 'processing' }, permalink_url: `/${video.page}/videos/${id}/` });
    }
    this.#error(res, 400, 100, `Object with ID '${id}' does not exist`, 33);
  }

  #insights(id: string, params: Record<string, string>, res: ServerResponse): void {
    const metric = (name: string, value: number) => ({ name, period: 'lifetime', values: [{ value }] });
    if (this.igMedia.has(id))
      return this.#json(res, 200, {
        data: [metric('reach', 120), metric('likes', 14), metric('comments', 3), metric('shares', 2), metric('saved', 5), metric('views', 300)],
      });
    if (this.posts.has(id) || this.videos.has(id)) {
      const values: Record<string, number> = { post_media_view: 250, post_total_media_view_unique: 180, post_clicks: 12, post_reactions_like_total: 9 };
      const asked = (params.metric ?? '').split(',');
      // A deprecated metric (or any unknown one) fails the whole call.
      if (asked.some((name) => !(name in values))) return this.#error(res, 400, 100, '(#100) The value must be a valid insights metric');
      return this.#json(res, 200, { data: asked.map((name) => metric(name, values[name]!)) });
    }
    this.#error(res, 400, 100, `Object with ID '${id}' does not exist`, 33);
  }

  // Threads: graph.threads.net (tokens unversioned, the API under /v1.0) and threads.net's authorization window.

  async #threads(req: IncomingMessage, path: string, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: `/threads${path}`, params, authorization: req.headers.authorization });
    if (path === '/oauth/authorize' && method === 'GET') return this.#threadsAuthorize(params, res);
    if (path === '/oauth/access_token' && method === 'POST') return this.#threadsCode(params, res);
    if (path === '/access_token' && method === 'GET') return this.#threadsExchange(params, res);
    if (path === '/refresh_access_token' && method === 'GET') return this.#threadsRefresh(params, res);
    if (!path.startsWith('/v1.0/')) return this.#error(res, 400, 100, `Unsupported ${method} request: ${path}`);
    const info = this.#liveThreadsToken(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params.access_token);
    if (!info) return this.#error(res, 400, 190, 'Error validating access token: Session has expired.', 463);
    const profile = info.profile;
    if (this.#throttled(res, profile.id, 'threads')) return;
    const [node = '', edge] = path.slice('/v1.0/'.length).split('/');
    const route = `${method} ${edge ?? ''}`;
    const lacks = (scope: string) => this.threadsRepliesNeedPermission && !info.scopes.includes(scope);
    const permissionError = () => this.#error(res, 400, 10, 'Application does not have permission for this action');
    if (node === 'debug_token' && method === 'GET') {
      const inspected = this.#liveThreadsToken(params.input_token);
      if (!inspected) return this.#error(res, 400, 190, 'Invalid OAuth access token.');
      return this.#json(res, 200, {
        data: {
          type: 'USER',
          application: 'Publisher',
          is_valid: true,
          issued_at: Math.floor(inspected.issuedAt / 1000),
          expires_at: Math.floor(inspected.expiresAt / 1000),
          scopes: inspected.scopes,
          user_id: inspected.profile.id,
        },
      });
    }
    if ((edge === 'replies' || edge === 'conversation') && method === 'GET' && lacks('threads_read_replies')) return permissionError();
    if (edge === 'manage_reply' && lacks('threads_manage_replies')) return permissionError();
    if (route === 'POST threads' && params.reply_to_id !== undefined && lacks('threads_manage_replies')) return permissionError();
    if (node === 'me' && route === 'GET ') {
      const { id, username, name } = profile;
      return this.#json(res, 200, { id, username, name, threads_profile_picture_url: `https://scontent.cdninstagram.com/v/${id}.jpg` });
    }
    if (node === profile.id && route === 'POST threads') return this.#threadsContainer(profile, params, res);
    if (node === profile.id && route === 'POST threads_publish') return this.#threadsPublish(profile, params, res);
    // A profile's posts are listed at /threads, its replies at /replies.
    if (node === profile.id && (route === 'GET threads' || route === 'GET replies'))
      return this.#latest(
        res,
        [...this.threadsPosts.values()].filter((post) => post.user === profile.id && (post.replyTo !== undefined) === (edge === 'replies')),
        (post) => ({ id: post.id, text: post.text }),
      );
    const post = this.threadsPosts.get(node);
    if (post && edge && (route === 'GET replies' || route === 'GET conversation')) return this.#threadsReplies(post, edge, params, res);
    if (post && route === 'POST manage_reply') return this.#threadsManageReply(profile, post, params, res);
    if (post?.user === profile.id && route === 'GET insights') return this.#threadsInsights(post, params, res);
    if (post?.user === profile.id && route === 'GET ') return this.#json(res, 200, { id: post.id, permalink: post.permalink });
    const container = this.threadsContainers.get(node);
    if (container?.user === profile.id && route === 'GET ') {
      if (container.status === 'IN_PROGRESS' && ++container.reads > this.processingReads) container.status = 'FINISHED';
      return this.#json(res, 200, { id: container.id, status: container.status });
    }
    this.#error(res, 400, 100, `Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 33);
  }

  #issueThreads(kind: ThreadsToken['kind'], profile: ThreadsProfile, lifetimeMs: number, scopes: string[]): string {
    const token = `TH${randomBytes(24).toString('base64url')}`;
    this.#threadsTokens.set(token, { kind, scopes, profile, issuedAt: this.threadsNow, expiresAt: this.threadsNow + lifetimeMs });
    return token;
  }

  #liveThreadsToken(token: string | undefined): ThreadsToken | undefined {
    const info = this.#threadsTokens.get(token ?? '');
    return info && info.expiresAt > this.threadsNow ? info : undefined;
  }

  #threadsAuthorize(params: Record<string, string>, res: ServerResponse): void {
    const app = { clientId: this.threadsClientId, basicScope: 'threads_basic', declined: this.threadsDeclinedPermissions };
    this.#authorizationWindow(params, res, app, (code, redirectUri, scopes) =>
      this.#threadsCodes.set(code, { redirectUri, profile: { ...this.threadsProfile }, scopes }),
    );
  }

  /**
   * Threads' and Instagram Login's authorization window: it needs the app, a registered redirect_uri, response_type=code
   * and the basic scope, then sends the person back with a code for the scopes they did not untick (`keep` stores it).
   */
  #authorizationWindow(
    params: Record<string, string>,
    res: ServerResponse,
    app: { clientId: string; basicScope: string; declined: string[] },
    keep: (code: string, redirectUri: string, scopes: string[]) => void,
  ): void {
    const redirectUri = params.redirect_uri ?? '';
    const scopes = (params.scope ?? '').split(',');
    if (params.client_id !== app.clientId || !this.#redirectUris.includes(redirectUri) || params.response_type !== 'code' || !scopes.includes(app.basicScope)) {
      return void res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end(`Invalid request: client_id, redirect_uri, response_type=code and ${app.basicScope} are required`);
    }
    const code = randomBytes(24).toString('base64url');
    keep(
      code,
      redirectUri,
      scopes.filter((scope) => !app.declined.includes(scope)),
    );
    const back = new URL(redirectUri);
    if (params.state) back.searchParams.set('state', params.state);
    back.searchParams.set('code', code);
    back.hash = '_';
    res.writeHead(302, { location: back.href }).end();
  }

  /** The code exchange answers in the Authorization Window's own shape, not Graph's: `{access_token, user_id}` (a number). */
  #threadsCode(params: Record<string, string>, res: ServerResponse): void {
    const refuse = (code: number, error_message: string) => this.#json(res, 400, { error_type: 'OAuthException', code, error_message });
    if (params.client_id !== this.threadsClientId || params.client_secret !== this.threadsClientSecret) return refuse(101, 'Error validating client secret.');
    if (params.grant_type !== 'authorization_code') return refuse(100, 'Unsupported grant_type');
    const issued = this.#threadsCodes.get(params.code ?? '');
    this.#threadsCodes.delete(params.code ?? '');
    if (!issued) return refuse(100, 'This authorization code has been used.');
    if (issued.redirectUri !== params.redirect_uri) return refuse(100, 'Error validating verification code. Please make sure your redirect_uri is identical.');
    this.#json(res, 200, { access_token: this.#issueThreads('short', issued.profile, hourMs, issued.scopes), user_id: Number(issued.profile.id) });
  }

  #threadsExchange(params: Record<string, string>, res: ServerResponse): void {
    if (params.grant_type !== 'th_exchange_token') return this.#error(res, 400, 100, 'Unsupported grant_type');
    if (params.client_secret !== this.threadsClientSecret) return this.#error(res, 400, 101, 'Error validating client secret.');
    const short = this.#liveThreadsToken(params.access_token);
    if (short?.kind !== 'short') return this.#error(res, 400, 190, 'Invalid OAuth access token.');
    this.#json(res, 200, { access_token: this.#issueThreads('long', short.profile, 60 * dayMs, short.scopes), token_type: 'bearer', expires_in: 5_183_944 });
  }

  #threadsRefresh(params: Record<string, string>, res: ServerResponse): void {
    if (params.grant_type !== 'th_refresh_token') return this.#error(res, 400, 100, 'Unsupported grant_type');
    const current = this.#liveThreadsToken(params.access_token);
    if (current?.kind !== 'long') return this.#error(res, 400, 190, 'Error validating access token: Session has expired.', 463);
    if (this.threadsNow - current.issuedAt < dayMs) return this.#error(res, 400, 100, 'A long-lived token can be refreshed once it is at least 24 hours old.');
    this.#json(res, 200, {
      access_token: this.#issueThreads('long', current.profile, 60 * dayMs, current.scopes),
      token_type: 'bearer',
      expires_in: 5_183_944,
    });
  }

  async #threadsContainer(profile: ThreadsProfile, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const refuse = (message: string) => this.#error(res, 400, 100, `Invalid parameter: ${message}`);
    const type = params.media_type ?? '';
    const text = params.text ?? '';
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type)) return refuse('media_type must be TEXT, IMAGE, VIDEO or CAROUSEL');
    if (type === 'TEXT' && !text) return refuse('text is required for media_type=TEXT');
    if ([...text].length > 500) return refuse('text is longer than 500 characters');
    if ((text.match(/https?:\/\/\S+/g) ?? []).length > 5) return refuse('a post may contain at most 5 links');
    if (
      params.reply_control &&
      !['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'].includes(params.reply_control)
    )
      return refuse('reply_control');
    if (params.alt_text && [...params.alt_text].length > 1000) return refuse('alt_text is longer than 1000 characters');
    if (params.link_attachment && type !== 'TEXT') return refuse('link_attachment is only available for TEXT posts');
    if (params.is_carousel_item === 'true' && type !== 'IMAGE' && type !== 'VIDEO') return refuse('a carousel item is an IMAGE or a VIDEO');
    if (params.reply_to_id !== undefined && !this.threadsPosts.has(params.reply_to_id))
      return this.#error(
        res,
        400,
        100,
        `Object with ID '${params.reply_to_id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    const container: Container = { id: this.#id(), user: profile.id, params, reads: 0, status: 'IN_PROGRESS' };
    if (type === 'CAROUSEL') {
      const children = (params.children ?? '').split(',').filter(Boolean);
      if (children.length < 2 || children.length > 20) return refuse('a carousel has 2 to 20 children');
      for (const child of children) {
        const item = this.threadsContainers.get(child);
        if (item?.user !== profile.id || item.params.is_carousel_item !== 'true' || item.status !== 'FINISHED')
          return refuse(`child ${child} is not a finished carousel item`);
      }
    }
    if (type === 'IMAGE' || type === 'VIDEO') {
      const url = type === 'IMAGE' ? params.image_url : params.video_url;
      if (!url) return refuse(`${type === 'IMAGE' ? 'image_url' : 'video_url'} is required for media_type=${type}`);
      const media = await this.#fetch(url);
      if (typeof media === 'string') return this.#error(res, 400, 100, media);
      const formats = type === 'IMAGE' ? ['image/jpeg', 'image/png'] : ['video/mp4', 'video/quicktime'];
      if (!formats.includes(media.contentType)) return this.#error(res, 400, 100, `Unsupported ${type.toLowerCase()} format: ${media.contentType}`);
      container.media = media;
    }
    this.threadsContainers.set(container.id, container);
    this.#json(res, 200, { id: container.id });
  }

  async #threadsPublish(profile: ThreadsProfile, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const container = this.threadsContainers.get(params.creation_id ?? '');
    if (container?.user !== profile.id || container.params.is_carousel_item === 'true' || container.status === 'PUBLISHED')
      return this.#error(res, 400, 100, 'Invalid parameter: creation_id');
    if (container.status !== 'FINISHED') {
      this.earlyPublishes++;
      return this.#error(res, 400, 9007, 'The media is not ready for publishing, please wait for a moment', 2207027);
    }
    if (this.threadsMediaNotFound > 0) {
      this.threadsMediaNotFound--;
      return this.#json(res, 400, {
        error: {
          message: 'The requested resource does not exist',
          type: 'OAuthException',
          code: 24,
          error_subcode: 4279009,
          is_transient: false,
          error_user_title: 'Media Not Found',
          error_user_msg: `The media with id ${container.id} cannot be found.`,
          fbtrace_id: randomBytes(8).toString('base64url'),
        },
      });
    }
    container.status = 'PUBLISHED';
    const id = this.#id();
    const permalink = `https://www.threads.net/@${profile.username}/post/${Buffer.from(id).toString('base64url')}`;
    const replyTo = container.params.reply_to_id;
    this.threadsPosts.set(id, {
      id,
      user: profile.id,
      username: profile.username,
      container: container.id,
      text: container.params.text ?? '',
      permalink,
      publishedAt: this.threadsNow,
      hideStatus: 'NOT_HUSHED',
      ...(replyTo ? { replyTo } : {}),
    });
    if (this.holdPublishMs) await sleep(this.holdPublishMs);
    this.#json(res, 200, { id });
  }

  #threadsInsights(post: ThreadsPost, params: Record<string, string>, res: ServerResponse): void {
    const values: Record<string, number> = { views: 420, likes: 31, replies: 6, reposts: 4, quotes: 2, shares: 3 };
    const metrics = (params.metric ?? '').split(',');
    const unknown = metrics.find((name) => !(name in values));
    if (unknown !== undefined) return this.#error(res, 400, 100, `Invalid parameter: metric ${unknown}`);
    this.#json(res, 200, {
      data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], id: `${post.id}/insights/${name}/lifetime` })),
    });
  }

  /** A token of `profile` with `scopes`, as its own authorization would give it: how another person writes at Threads. */
  issueThreadsToken(profile: ThreadsProfile, scopes = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies']): string {
    return this.#issueThreads('long', profile, 60 * dayMs, scopes);
  }

  /** Its author deletes the post (in the app): it is listed nowhere after, and replying to it is refused. */
  deleteThreadsPost(id: string): void {
    this.threadsPosts.delete(id);
  }

  /** Threads covers a reply (its own filters; the reference's `hide_status` COVERED). */
  coverThreadsReply(id: string): void {
    this.threadsPosts.get(id)!.hideStatus = 'COVERED';
  }

  /** The post of a reply's thread (`root_post`). */
  #threadsRoot(post: ThreadsPost): ThreadsPost {
    let root = post;
    while (root.replyTo !== undefined && this.threadsPosts.has(root.replyTo)) root = this.threadsPosts.get(root.replyTo)!;
    return root;
  }

  #threadsReplies(post: ThreadsPost, edge: string, params: Record<string, string>, res: ServerResponse): void {
    if (params.before !== undefined && params.after !== undefined)
      return this.#error(res, 400, 100, 'Invalid parameter: before and after cannot both be passed');
    const below = (candidate: ThreadsPost): boolean => {
      const parent = candidate.replyTo === undefined ? undefined : this.threadsPosts.get(candidate.replyTo);
      return candidate.replyTo === post.id || (edge === 'conversation' && parent !== undefined && below(parent));
    };
    const replies = [...this.threadsPosts.values()].filter((candidate) => candidate.id !== post.id && below(candidate));
    if (params.reverse !== 'false') replies.reverse();
    const start = params.after ? Number(Buffer.from(params.after, 'base64url').toString()) : 0;
    const page = replies.slice(start, start + this.threadsRepliesPageSize);
    const end = start + page.length;
    const asked = new Set((params.fields ?? 'id').split(','));
    const view = (reply: ThreadsPost): Record<string, unknown> => {
      const all: Record<string, unknown> = {
        id: reply.id,
        text: reply.text,
        username: reply.username,
        permalink: reply.permalink,
        // Meta's timestamps: ISO 8601 to the second, offset without a colon.
        timestamp: new Date(Math.floor(reply.publishedAt / 1000) * 1000).toISOString().replace('.000Z', '+0000'),
        media_product_type: 'THREADS',
        is_reply: true,
        replied_to: { id: reply.replyTo },
        root_post: { id: this.#threadsRoot(reply).id },
        hide_status: reply.hideStatus,
        has_replies: [...this.threadsPosts.values()].some((candidate) => candidate.replyTo === reply.id),
        profile_picture_url: `https://scontent.cdninstagram.com/v/${reply.user}.jpg`,
      };
      return Object.fromEntries(Object.entries(all).filter(([name]) => asked.has(name)));
    };
    const cursor = (offset: number) => Buffer.from(String(offset)).toString('base64url');
    const more = end < replies.length;
    this.#json(res, 200, {
      data: page.map(view),
      paging: {
        cursors: { before: cursor(start), after: cursor(end) },
        ...(more ? { next: `${this.threadsUrl}/v1.0/${post.id}/${edge}?after=${cursor(end)}` } : {}),
      },
    });
  }

  /** manage_reply: the root post's profile hides or unhides a top-level reply, and with it every reply below it. */
  #threadsManageReply(profile: ThreadsProfile, reply: ThreadsPost, params: Record<string, string>, res: ServerResponse): void {
    const parent = reply.replyTo === undefined ? undefined : this.threadsPosts.get(reply.replyTo);
    if (!parent || parent.replyTo !== undefined || this.#threadsRoot(reply).user !== profile.id)
      return this.#error(res, 400, 100, 'Invalid parameter: only top-level replies to your own posts can be hidden');
    const status = params.hide === 'true' ? 'HIDDEN' : 'UNHUSHED';
    const mark = (post: ThreadsPost): void => {
      post.hideStatus = status;
      for (const child of this.threadsPosts.values()) if (child.replyTo === post.id) mark(child);
    };
    mark(reply);
    this.#json(res, 200, { success: true });
  }

  // Instagram with Instagram Login: www.instagram.com's authorization, api.instagram.com's code exchange,
  // graph.instagram.com's token paths (unversioned) and API (versioned), all under `instagramUrl`.

  async #instagram(req: IncomingMessage, path: string, params: Record<string, string>, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: `/instagram${path}`, params, authorization: req.headers.authorization });
    if (path === '/oauth/authorize' && method === 'GET') return this.#instagramAuthorize(params, res);
    if (path === '/oauth/access_token' && method === 'POST') return this.#instagramCode(params, res);
    if (path === '/access_token' && method === 'GET') return this.#instagramExchange(params, res);
    if (path === '/refresh_access_token' && method === 'GET') return this.#instagramRefresh(params, res);
    const prefix = `/${this.version}/`;
    if (!path.startsWith(prefix)) return this.#error(res, 400, 2635, `Unknown or missing API version (${this.version} expected)`);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? params.access_token;
    const info = this.#liveInstagramToken(token);
    if (!info) return this.#error(res, 400, 190, 'Error validating access token: Session has expired.', 463);
    const { account } = info;
    if (this.#throttled(res, account.userId, 'instagram')) return;
    const [node = '', edge] = path.slice(prefix.length).split('/');
    const route = `${method} ${edge ?? ''}`;
    if (node === 'me' && route === 'GET ') {
      const { appScopedId, userId, username, name } = account;
      // The reference answers `user_id` as a numeric string.
      return this.#json(res, 200, {
        id: appScopedId,
        user_id: userId,
        username,
        name,
        account_type: 'MEDIA_CREATOR',
        profile_picture_url: `https://scontent.cdninstagram.com/v/${userId}.jpg`,
      });
    }
    if (node === account.userId && route === 'POST media') return this.#container(account.userId, params, res);
    if (node === account.userId && route === 'POST media_publish') return this.#publish(account.userId, params, res);
    if (node === account.userId && route === 'GET media')
      return this.#latest(
        res,
        [...this.igMedia.values()].filter((media) => media.user === account.userId),
        (media) => ({ id: media.id, caption: media.caption }),
      );
    const comment = this.comments.get(node);
    const media = this.igMedia.get(comment?.on ?? node);
    const container = this.containers.get(node);
    if ((media ?? container)?.user !== account.userId)
      return this.#error(
        res,
        400,
        100,
        `Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    if (media && (route === 'POST comments' || route === 'POST replies')) {
      if (!info.scopes.includes('instagram_business_manage_comments')) return this.#error(res, 403, 10, 'Application does not have permission for this action');
      if ((route === 'POST replies') !== (comment !== undefined)) return this.#error(res, 400, 100, `Unsupported ${method} request.`, 33);
      return this.#addComment({ root: media.id, ...(comment ? { parent: comment.parent ?? comment.id } : {}) }, account.userId, this.#id(), params, res);
    }
    if (media && (route === 'GET comments' || route === 'GET replies')) return this.#commentsOn(node, edge!, params, info, res);
    if (media && route === 'GET insights') return this.#insights(media.id, params, res);
    if (route === 'GET ') return this.#object(node, res);
    this.#error(res, 400, 100, `Unsupported ${method} request.`, 33);
  }

  #issueInstagram(kind: InstagramToken['kind'], account: InstagramLoginAccount, lifetimeMs: number, scopes: string[]): string {
    const token = `IGAA${randomBytes(24).toString('base64url')}`;
    this.#instagramTokens.set(token, { kind, scopes, account, issuedAt: this.instagramNow, expiresAt: this.instagramNow + lifetimeMs });
    return token;
  }

  #liveInstagramToken(token: string | undefined): InstagramToken | undefined {
    const info = this.#instagramTokens.get(token ?? '');
    return info && info.expiresAt > this.instagramNow && !this.#dead.has(token ?? '') ? info : undefined;
  }

  #instagramAuthorize(params: Record<string, string>, res: ServerResponse): void {
    const app = { clientId: this.instagramClientId, basicScope: 'instagram_business_basic', declined: this.instagramDeclinedPermissions };
    this.#authorizationWindow(params, res, app, (code, redirectUri, scopes) =>
      this.#instagramCodes.set(code, { redirectUri, account: { ...this.instagramAccount }, scopes }),
    );
  }

  #instagramCode(params: Record<string, string>, res: ServerResponse): void {
    const refuse = (error_message: string) => this.#json(res, 400, { error_type: 'OAuthException', code: 400, error_message });
    if (params.client_id !== this.instagramClientId || params.client_secret !== this.instagramClientSecret) return refuse('Invalid client_secret');
    if (params.grant_type !== 'authorization_code') return refuse('Invalid grant_type');
    const issued = this.#instagramCodes.get(params.code ?? '');
    this.#instagramCodes.delete(params.code ?? '');
    if (!issued) return refuse('This authorization code has been used');
    if (issued.redirectUri !== params.redirect_uri) return refuse('Error validating verification code. Please make sure your redirect_uri is identical');
    const access_token = this.#issueInstagram('short', issued.account, hourMs, issued.scopes);
    if (this.instagramTokenAnswer === 'data') {
      return this.#json(res, 200, { data: [{ access_token, user_id: issued.account.userId, permissions: issued.scopes.join(',') }] });
    }
    // Written by hand: a JSON number beyond 2^53, as the flat answer gives it.
    res
      .writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
      .end(`{"access_token":${JSON.stringify(access_token)},"user_id":${issued.account.userId},"permissions":${JSON.stringify(issued.scopes)}}`);
  }

  #instagramExchange(params: Record<string, string>, res: ServerResponse): void {
    if (params.grant_type !== 'ig_exchange_token') return this.#error(res, 400, 100, 'Unsupported grant_type');
    if (params.client_secret !== this.instagramClientSecret) return this.#error(res, 400, 101, 'Error validating client secret.');
    const short = this.#liveInstagramToken(params.access_token);
    if (short?.kind !== 'short') return this.#error(res, 400, 190, 'Invalid OAuth access token.');
    const access_token = this.#issueInstagram('long', short.account, 60 * dayMs, short.scopes);
    this.#json(res, 200, { access_token, token_type: 'bearer', expires_in: 5_183_944 });
  }

  #instagramRefresh(params: Record<string, string>, res: ServerResponse): void {
    if (params.grant_type !== 'ig_refresh_token') return this.#error(res, 400, 100, 'Unsupported grant_type');
    const current = this.#liveInstagramToken(params.access_token);
    if (current?.kind !== 'long') return this.#error(res, 400, 190, 'Error validating access token: Session has expired.', 463);
    if (this.instagramNow - current.issuedAt < dayMs)
      return this.#error(res, 400, 100, 'A long-lived token can be refreshed once it is at least 24 hours old.');
    const access_token = this.#issueInstagram('long', current.account, 60 * dayMs, current.scopes);
    this.#json(res, 200, { access_token, token_type: 'bearer', expires_in: 5_183_944 });
  }
}

/** Fields asked for (`fields=id,text,replies{id,text}`): each name, with the fields of a nested edge. */
type Fields = Map<string, Fields | null>;

/** The `fields` parameter parsed, one level of nesting deep as the comments' `replies{…}` needs; `defaults` without one. */
function fieldsOf(value: string | undefined, defaults: string[]): Fields {
  const fields: Fields = new Map();
  if (!value) {
    for (const name of defaults) fields.set(name, null);
    return fields;
  }
  for (const [, name, inner] of value.matchAll(/([a-z_]+)(?:\{([^}]*)\})?/g)) fields.set(name!, inner === undefined ? null : fieldsOf(inner, []));
  return fields;
}

const pick = (values: Record<string, unknown>, asked: Fields) => Object.fromEntries(Object.entries(values).filter(([name]) => asked.has(name)));

/** Graph's times: ISO 8601 to the second with a +0000 offset ("2017-08-31T18:10:30+0000"). */
const graphTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+0000`;
/**
 * `profile` posts at Threads as Threads' Create Replies and Posts pages say a client does (a TEXT container, with
 * `reply_to_id` for a reply, read until FINISHED, then threads_publish), with `token`: answers the post's id.
 */
export async function postOnThreads(meta: MetaStandIn, profile: ThreadsProfile, token: string, text: string, replyTo?: string): Promise<string> {
  const call = async (method: 'GET' | 'POST', path: string, params: Record<string, string>): Promise<Record<string, string>> => {
    const url = new URL(`${meta.threadsUrl}/v1.0${path}`);
    if (method === 'GET') for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(method === 'POST' ? { body: new URLSearchParams(params) } : {}),
    });
    const body = (await response.json()) as Record<string, string>;
    if (!response.ok) throw new Error(`Threads answered ${response.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const container = await call('POST', `/${profile.id}/threads`, { media_type: 'TEXT', text, ...(replyTo ? { reply_to_id: replyTo } : {}) });
  while ((await call('GET', `/${container.id}`, { fields: 'status' })).status !== 'FINISHED');
  return (await call('POST', `/${profile.id}/threads_publish`, { creation_id: container.id! })).id!;
}
