// A Mastodon instance stand-in for tests: a local HTTP server implementing exactly the endpoints the service calls,
// as docs.joinmastodon.org documents them (request parameters, answers, error bodies and statuses), with
// switches for the failures a real instance can show. No Mastodon server installs offline; test/http/
// mastodonStandIn.test.ts drives this one with `masto` (the reference client library) to keep its shapes honest.
//
//   POST /api/v1/apps                        https://docs.joinmastodon.org/methods/apps/#create
//   GET  /.well-known/oauth-authorization-server   https://docs.joinmastodon.org/methods/oauth/#authorization-server-metadata (4.3+)
//   GET  /oauth/authorize                    https://docs.joinmastodon.org/methods/oauth/#authorize (auto-approved as `signedIn`)
//   POST /oauth/token                        https://docs.joinmastodon.org/methods/oauth/#token (PKCE S256 checked when used)
//   POST /oauth/revoke                       https://docs.joinmastodon.org/methods/oauth/#revoke
//   GET  /api/v1/accounts/verify_credentials https://docs.joinmastodon.org/methods/accounts/#verify_credentials
//   GET  /api/v2/instance                    https://docs.joinmastodon.org/methods/instance/#v2
//   POST /api/v2/media                       https://docs.joinmastodon.org/methods/media/#v2 (200 for images, 202 for video and GIF)
//   GET  /api/v1/media/:id                   https://docs.joinmastodon.org/methods/media/#get (206 while processing)
//   POST /api/v1/statuses                    https://docs.joinmastodon.org/methods/statuses/#create (Idempotency-Key kept 1 hour;
//                                            in_reply_to_id: 404 for a status that does not exist)
//   GET  /api/v1/statuses/:id                https://docs.joinmastodon.org/methods/statuses/#get
//   GET  /api/v1/statuses/:id/context        https://docs.joinmastodon.org/methods/statuses/#context (ancestors and
//                                            descendants, oldest first; a private or direct status only for its author
//                                            and the account it answers; a deleted status breaks the chain below it)
//   DELETE (by the test) `deleteStatus`      https://docs.joinmastodon.org/methods/statuses/#delete (gone: 404 to
//                                            GET and as `in_reply_to_id`)
// Every answer carries the rate-limit headers of https://docs.joinmastodon.org/api/rate-limits/ (300 calls per
// 5 minutes); errors are `{"error": "..."}` (https://docs.joinmastodon.org/entities/Error/).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InstanceLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  descriptionLimit: number;
  supportedMimeTypes: string[];
}

export interface StandInOptions {
  /** Mastodon 4.3+ (serves OAuth metadata and accepts PKCE); false behaves like an older instance. */
  pkce?: boolean;
  limits?: Partial<InstanceLimits>;
  /** How many GET /api/v1/media/:id answer 206 before a video or GIF (always 202 when uploaded) is ready. */
  processingPolls?: number;
}

interface App {
  name: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
}

interface StandInAccount {
  id: string;
  username: string;
  displayName: string;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  accountId: string;
  challenge: string | null;
}

interface Token {
  accountId: string;
  clientId: string | null;
  scopes: string[];
  revoked: boolean;
}

export interface StoredMedia {
  id: string;
  accountId: string;
  type: 'image' | 'video' | 'gifv';
  mimeType: string;
  size: number;
  description: string | null;
  /** Processed: images at once, video and GIFs after `processingPolls` looks at them. */
  ready: boolean;
  pollsLeft: number;
}

export interface StoredStatus {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  visibility: string;
  mediaIds: string[];
  idempotencyKey: string | null;
  /** The status this one replies to (`in_reply_to_id`). */
  inReplyToId: string | null;
  createdAt: Date;
  favourites: number;
  reblogs: number;
  replies: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

class Answer extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

const invalidToken = () => new Answer(401, { error: 'The access token is invalid' });
const outsideScopes = () => new Answer(403, { error: 'This action is outside the authorized scopes' });
const recordNotFound = () => new Answer(404, { error: 'Record not found' });
const validationFailed = (reason: string) => new Answer(422, { error: `Validation failed: ${reason}` });

const defaultLimits: InstanceLimits = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
  imageSizeLimit: 16 * 1024 * 1024,
  videoSizeLimit: 99 * 1024 * 1024,
  descriptionLimit: 1500,
  supportedMimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'],
};

const rateLimit = 300;
const rateWindowMs = 5 * 60_000;
export const idempotencyWindowMs = 60 * 60_000;
const urlPattern = /https?:\/\/\S+/g;
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const randomId = () => String(100_000_000_000 + Math.floor(Math.random() * 900_000_000_000));
/** A scope grants itself and, for `read`/`write`, every `read:x`/`write:x` below it. */
const grants = (held: string[], wanted: string) => held.includes(wanted) || held.includes(wanted.split(':')[0]!);

export class MastodonStandIn {
  readonly url: string;
  readonly limits: InstanceLimits;
  readonly apps = new Map<string, App>();
  readonly accounts = new Map<string, StandInAccount>();
  readonly media = new Map<string, StoredMedia>();
  readonly statuses = new Map<string, StoredStatus>();
  readonly requests: SeenRequest[] = [];
  /** Who approves authorizations at /oauth/authorize. */
  signedIn: StandInAccount;
  /** The person refuses at the authorization page. */
  denyAuthorization = false;
  /**
   * A hostile instance: fields of its OAuth metadata replaced (an endpoint at a private address, a `javascript:`
   * authorization endpoint), the permalink (`url` and `uri`) it gives its statuses, and the account's `avatar`.
   */
  forged: { metadata?: Record<string, unknown>; statusUrl?: string; avatar?: string } = {};
  readonly #server: Server;
  readonly #options: Required<Omit<StandInOptions, 'limits'>>;
  readonly #codes = new Map<string, Grant>();
  readonly #tokens = new Map<string, Token>();
  readonly #idempotency = new Map<string, { statusId: string; at: number }>();
  #failures: { status: number; body: unknown; path: string | undefined }[] = [];
  #rateLimitedUntil = 0;
  #rateLimitedCalls = 0;
  #windowStart = Date.now();
  #callsInWindow = 0;
  /** Added to the clock (e.g. to step past the idempotency window). */
  clockOffsetMs = 0;

  private constructor(server: Server, url: string, options: StandInOptions) {
    this.#server = server;
    this.url = url;
    this.limits = { ...defaultLimits, ...options.limits };
    this.#options = { pkce: options.pkce ?? true, processingPolls: options.processingPolls ?? 1 };
    this.signedIn = this.addAccount('alice', 'Alice');
  }

  static async start(options: StandInOptions = {}): Promise<MastodonStandIn> {
    let standIn: MastodonStandIn | undefined;
    const server = createServer((request, response) => void standIn!.#handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new MastodonStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return standIn;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  addAccount(username: string, displayName: string): StandInAccount {
    const account = { id: randomId(), username, displayName };
    this.accounts.set(account.id, account);
    return account;
  }

  /** An access token for `account` as if it had authorized an app (for tests that start connected). */
  issueToken(account: StandInAccount = this.signedIn, scopes = ['read', 'write']): string {
    const token = randomBytes(24).toString('base64url');
    this.#tokens.set(token, { accountId: account.id, clientId: null, scopes, revoked: false });
    return token;
  }

  /** The person revokes the app in their settings: the token answers 401 from now on. */
  revokeToken(token: string): void {
    const stored = this.#tokens.get(token);
    if (stored) stored.revoked = true;
  }

  isRevoked(token: string): boolean {
    return this.#tokens.get(token)?.revoked ?? false;
  }

  /** The next `count` requests (to `path` only, when given) fail with this status and body. */
  failNext(count: number, status: number, body: unknown = { error: 'Something went wrong on our end' }, path?: string): void {
    for (let i = 0; i < count; i++) this.#failures.push({ status, body, path });
  }

  /** The next `count` requests answer 429 with X-RateLimit-Reset `resetInMs` from now. */
  rateLimitNext(count: number, resetInMs: number): void {
    this.#rateLimitedCalls = count;
    this.#rateLimitedUntil = Date.now() + resetInMs;
  }

  statusesOf(account: StandInAccount = this.signedIn): StoredStatus[] {
    return [...this.statuses.values()].filter((status) => status.accountId === account.id);
  }

  #sequence = 0;

  /**
   * Status ids as Mastodon makes them (mastodon/mastodon lib/mastodon/snowflake.rb, `timestamp_id`): the time in ms
   * shifted left 16 bits plus a sequence, so later statuses have larger ids.
   */
  #statusId(): string {
    return String((BigInt(this.#now()) << 16n) + BigInt(this.#sequence++ & 0xffff));
  }

  #now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    this.requests.push({ method: request.method ?? '', path: url.pathname, headers: request.headers });
    const headers: Record<string, string> = {};
    try {
      Object.assign(headers, this.#rateLimitHeaders());
      const failure = this.#failures.findIndex((candidate) => !candidate.path || candidate.path === url.pathname);
      if (failure >= 0) {
        const { status, body } = this.#failures.splice(failure, 1)[0]!;
        throw new Answer(status, body);
      }
      const answer = await this.#route(request, url);
      this.#send(response, answer.status, answer.body, { ...headers, ...answer.headers });
    } catch (error) {
      if (error instanceof Answer) this.#send(response, error.status, error.body, { ...headers, ...error.headers });
      else this.#send(response, 500, { error: String(error) }, headers);
    }
  }

  #send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    if (typeof body === 'string') {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(body === undefined ? '' : JSON.stringify(body));
  }

  #rateLimitHeaders(): Record<string, string> {
    const now = Date.now();
    if (this.#rateLimitedCalls > 0) {
      this.#rateLimitedCalls--;
      const reset = new Date(this.#rateLimitedUntil).toISOString();
      throw new Answer(
        429,
        { error: 'Too many requests' },
        { 'x-ratelimit-limit': String(rateLimit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      );
    }
    if (now - this.#windowStart >= rateWindowMs) {
      this.#windowStart = now;
      this.#callsInWindow = 0;
    }
    this.#callsInWindow++;
    return {
      'x-ratelimit-limit': String(rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, rateLimit - this.#callsInWindow)),
      'x-ratelimit-reset': new Date(this.#windowStart + rateWindowMs).toISOString(),
    };
  }

  async #route(request: IncomingMessage, url: URL): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const route = `${request.method} ${url.pathname}`;
    const mediaId = /^\/api\/v1\/media\/([^/]+)$/.exec(url.pathname)?.[1];
    const statusId = /^\/api\/v1\/statuses\/([^/]+)$/.exec(url.pathname)?.[1];
    const contextOf = /^\/api\/v1\/statuses\/([^/]+)\/context$/.exec(url.pathname)?.[1];
    if (route === 'GET /.well-known/oauth-authorization-server') return this.#metadata();
    if (route === 'POST /api/v1/apps') return this.#createApp(await readParams(request));
    if (route === 'GET /oauth/authorize') return this.#authorize(url.searchParams);
    if (route === 'POST /oauth/token') return this.#token(request, await readParams(request));
    if (route === 'POST /oauth/revoke') return this.#revoke(request, await readParams(request));
    if (route === 'GET /api/v1/accounts/verify_credentials') return { status: 200, body: this.#accountJson(this.#authenticate(request, 'read:accounts')) };
    if (route === 'GET /api/v2/instance') return { status: 200, body: this.#instanceJson() };
    if (route === 'POST /api/v2/media') return this.#uploadMedia(this.#authenticate(request, 'write:media'), await readParams(request));
    if (request.method === 'GET' && mediaId) return this.#getMedia(this.#authenticate(request, 'write:media'), mediaId);
    if (route === 'POST /api/v1/statuses') return this.#createStatus(this.#authenticate(request, 'write:statuses'), request, await readParams(request));
    if (request.method === 'GET' && statusId) return this.#getStatus(request, statusId);
    if (request.method === 'GET' && contextOf) return this.#context(request, contextOf);
    throw new Answer(404, "<!DOCTYPE html><html><body>The page you are looking for isn't here.</body></html>");
  }

  #metadata() {
    if (!this.#options.pkce) throw new Answer(404, "<!DOCTYPE html><html><body>The page you are looking for isn't here.</body></html>");
    return {
      status: 200,
      body: {
        issuer: `${this.url}/`,
        authorization_endpoint: `${this.url}/oauth/authorize`,
        token_endpoint: `${this.url}/oauth/token`,
        app_registration_endpoint: `${this.url}/api/v1/apps`,
        revocation_endpoint: `${this.url}/oauth/revoke`,
        scopes_supported: ['read', 'write', 'read:accounts', 'read:statuses', 'write:media', 'write:statuses', 'profile', 'follow', 'push'],
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        ...this.forged.metadata,
      },
    };
  }

  #createApp(params: Params) {
    const name = params.string('client_name');
    // Before 4.3 the controller permits `redirect_uris` as a scalar only (`params.permit(:client_name, :redirect_uris,
    // :scopes, :website)`): an array is dropped, and the app is refused as if none were given. 4.3.0 added arrays
    // (mastodon/documentation content/en/methods/apps.md; mastodon/mastodon app/controllers/api/v1/apps_controller.rb,
    // `redirect_uris: []`). A string holds one URI per line (Doorkeeper).
    const redirectUris = (this.#options.pkce ? params.list('redirect_uris') : [params.scalar('redirect_uris')])
      .flatMap((uri) => uri.split('\n'))
      .filter(Boolean);
    if (!name) throw validationFailed("Application name can't be blank");
    if (redirectUris.length === 0) throw validationFailed("Redirect URI can't be blank");
    if (redirectUris.some((uri) => uri !== 'urn:ietf:wg:oauth:2.0:oob' && !URL.canParse(uri))) throw validationFailed('Redirect URI must be an absolute URI.');
    const scopes = (params.string('scopes') || 'read').split(/[ +]/).filter(Boolean);
    const app: App = { name, clientId: randomBytes(32).toString('base64url'), clientSecret: randomBytes(32).toString('base64url'), redirectUris, scopes };
    this.apps.set(app.clientId, app);
    return {
      status: 200,
      body: {
        id: randomId(),
        name,
        website: params.string('website') || null,
        scopes,
        redirect_uri: redirectUris.join('\n'),
        redirect_uris: redirectUris,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        client_secret_expires_at: 0,
      },
    };
  }

  #authorize(query: URLSearchParams) {
    const app = this.apps.get(query.get('client_id') ?? '');
    const redirectUri = query.get('redirect_uri') ?? '';
    // Doorkeeper shows an error page (no redirect) when the client or the redirect URI is wrong.
    if (!app) throw new Answer(400, '<!DOCTYPE html><html><body>Client authentication failed due to unknown client.</body></html>');
    if (!app.redirectUris.includes(redirectUri)) throw new Answer(400, '<!DOCTYPE html><html><body>The redirect uri included is not valid.</body></html>');
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state) back.searchParams.set('state', state);
    const scopes = (query.get('scope') || 'read').split(/[ +]/).filter(Boolean);
    const challenge = query.get('code_challenge');
    const refusal =
      query.get('response_type') !== 'code'
        ? 'unsupported_response_type'
        : scopes.some((scope) => !app.scopes.includes(scope))
          ? 'invalid_scope'
          : challenge && (!this.#options.pkce || query.get('code_challenge_method') !== 'S256')
            ? 'invalid_request'
            : this.denyAuthorization
              ? 'access_denied'
              : null;
    if (refusal) {
      back.searchParams.set('error', refusal);
      back.searchParams.set(
        'error_description',
        refusal === 'access_denied' ? 'The resource owner or authorization server denied the request.' : 'The request is invalid.',
      );
    } else {
      const code = randomBytes(32).toString('base64url');
      this.#codes.set(code, { clientId: app.clientId, redirectUri, scopes, accountId: this.signedIn.id, challenge });
      back.searchParams.set('code', code);
    }
    return { status: 302, body: '', headers: { location: back.href } };
  }

  #client(request: IncomingMessage, params: Params): App {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64')
          .toString()
          .split(':')
          .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')))
      : [params.string('client_id'), params.string('client_secret')];
    const app = this.apps.get(id ?? '');
    if (!app || app.clientSecret !== secret) {
      throw new Answer(401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    }
    return app;
  }

  #token(request: IncomingMessage, params: Params) {
    const app = this.#client(request, params);
    if (params.string('grant_type') !== 'authorization_code')
      throw new Answer(400, {
        error: 'unsupported_grant_type',
        error_description: 'The authorization grant type is not supported by the authorization server.',
      });
    const invalidGrant = new Answer(400, {
      error: 'invalid_grant',
      error_description:
        'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
    });
    const code = params.string('code');
    const grant = this.#codes.get(code);
    if (!grant || grant.clientId !== app.clientId || grant.redirectUri !== params.string('redirect_uri')) throw invalidGrant;
    this.#codes.delete(code);
    if (grant.challenge) {
      const verifier = params.string('code_verifier');
      if (!verifier || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) throw invalidGrant;
    }
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, { accountId: grant.accountId, clientId: app.clientId, scopes: grant.scopes, revoked: false });
    return { status: 200, body: { access_token: token, token_type: 'Bearer', scope: grant.scopes.join(' '), created_at: Math.floor(Date.now() / 1000) } };
  }

  #revoke(request: IncomingMessage, params: Params) {
    const app = this.#client(request, params);
    const token = this.#tokens.get(params.string('token'));
    if (token && token.clientId !== app.clientId)
      throw new Answer(403, { error: 'unauthorized_client', error_description: 'You are not authorized to revoke this token' });
    if (token) token.revoked = true;
    return { status: 200, body: {} };
  }

  #authenticate(request: IncomingMessage, scope: string): StandInAccount {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer ? this.#tokens.get(bearer) : undefined;
    if (!token || token.revoked) throw invalidToken();
    if (!grants(token.scopes, scope) && !(scope === 'read:accounts' && token.scopes.includes('profile'))) throw outsideScopes();
    return this.accounts.get(token.accountId)!;
  }

  #accountJson(account: StandInAccount) {
    return {
      id: account.id,
      username: account.username,
      acct: account.username,
      display_name: account.displayName,
      locked: false,
      bot: false,
      created_at: '2024-01-01T00:00:00.000Z',
      note: '',
      url: `${this.url}/@${account.username}`,
      uri: `${this.url}/users/${account.username}`,
      avatar: this.forged.avatar ?? `${this.url}/avatars/original/missing.png`,
      avatar_static: `${this.url}/avatars/original/missing.png`,
      header: `${this.url}/headers/original/missing.png`,
      header_static: `${this.url}/headers/original/missing.png`,
      followers_count: 0,
      following_count: 0,
      statuses_count: this.statusesOf(account).length,
      last_status_at: null,
      emojis: [],
      fields: [],
      source: { privacy: 'public', sensitive: false, language: null, note: '', fields: [], follow_requests_count: 0 },
    };
  }

  #instanceJson() {
    const { limits } = this;
    return {
      domain: new URL(this.url).host,
      title: 'Stand-in',
      version: this.#options.pkce ? '4.4.0' : '4.2.0',
      source_url: 'https://github.com/mastodon/mastodon',
      description: 'A local stand-in for tests',
      usage: { users: { active_month: 1 } },
      thumbnail: { url: `${this.url}/thumbnail.png` },
      languages: ['en'],
      configuration: {
        urls: { streaming: this.url.replace(/^http/, 'ws') },
        accounts: { max_featured_tags: 10, max_pinned_statuses: 5 },
        statuses: {
          max_characters: limits.maxCharacters,
          max_media_attachments: limits.maxMediaAttachments,
          characters_reserved_per_url: limits.charactersReservedPerUrl,
        },
        media_attachments: {
          supported_mime_types: limits.supportedMimeTypes,
          description_limit: limits.descriptionLimit,
          image_size_limit: limits.imageSizeLimit,
          image_matrix_limit: 33_177_600,
          video_size_limit: limits.videoSizeLimit,
          video_frame_rate_limit: 120,
          video_matrix_limit: 8_294_400,
        },
        polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
        translation: { enabled: false },
      },
      registrations: { enabled: false, approval_required: false, message: null },
      api_versions: { mastodon: this.#options.pkce ? 4 : 2 },
      contact: { email: 'admin@example.test', account: null },
      rules: [],
    };
  }

  #uploadMedia(account: StandInAccount, params: Params) {
    const file = params.file('file');
    if (!file) throw validationFailed("File can't be blank");
    if (!this.limits.supportedMimeTypes.includes(file.type)) throw validationFailed('File content type is invalid, File is invalid');
    const type = file.type === 'image/gif' ? 'gifv' : file.type.startsWith('image/') ? 'image' : 'video';
    const limit = type === 'video' ? this.limits.videoSizeLimit : this.limits.imageSizeLimit;
    if (file.size > limit) throw validationFailed(`File file size must be less than ${Math.floor(limit / 1024 / 1024)} MB`);
    const description = params.string('description') || null;
    if (description && [...description].length > this.limits.descriptionLimit)
      throw validationFailed(`Description is too long (maximum is ${this.limits.descriptionLimit} characters)`);
    const ready = type === 'image';
    const media: StoredMedia = {
      id: randomId(),
      accountId: account.id,
      type,
      mimeType: file.type,
      size: file.size,
      description,
      ready,
      pollsLeft: this.#options.processingPolls,
    };
    this.media.set(media.id, media);
    return { status: ready ? 200 : 202, body: this.#mediaJson(media) };
  }

  #getMedia(account: StandInAccount, id: string) {
    const media = this.media.get(id);
    if (!media || media.accountId !== account.id) throw recordNotFound();
    if (!media.ready && media.pollsLeft > 0) {
      media.pollsLeft--;
      return { status: 206, body: this.#mediaJson(media) };
    }
    media.ready = true;
    return { status: 200, body: this.#mediaJson(media) };
  }

  #mediaJson(media: StoredMedia) {
    return {
      id: media.id,
      type: media.type,
      url: media.ready ? `${this.url}/system/media_attachments/files/${media.id}/original` : null,
      preview_url: `${this.url}/system/media_attachments/files/${media.id}/small`,
      remote_url: null,
      text_url: null,
      meta: {},
      description: media.description,
      blurhash: null,
    };
  }

  #createStatus(account: StandInAccount, request: IncomingMessage, params: Params) {
    const key = request.headers['idempotency-key'];
    const keyOf = typeof key === 'string' ? `${account.id}:${key}` : null;
    const earlier = keyOf ? this.#idempotency.get(keyOf) : undefined;
    if (earlier && this.#now() - earlier.at < idempotencyWindowMs) return { status: 200, body: this.#statusJson(this.statuses.get(earlier.statusId)!) };
    const text = params.string('status');
    const spoilerText = params.string('spoiler_text');
    const mediaIds = params.list('media_ids');
    const visibility = params.string('visibility') || 'public';
    if (!['public', 'unlisted', 'private', 'direct'].includes(visibility)) throw validationFailed('Visibility is not included in the list');
    if (text.trim() === '' && mediaIds.length === 0) throw validationFailed("Text can't be blank");
    // Each URL counts as characters_reserved_per_url; the content warning counts too.
    const length = [...text.replace(urlPattern, 'x'.repeat(this.limits.charactersReservedPerUrl))].length + [...spoilerText].length;
    if (length > this.limits.maxCharacters) throw validationFailed(`Text character limit of ${this.limits.maxCharacters} exceeded`);
    if (mediaIds.length > this.limits.maxMediaAttachments) throw validationFailed(`Cannot attach more than ${this.limits.maxMediaAttachments} files`);
    const media = mediaIds.map((id) => this.media.get(id));
    if (media.some((file) => !file || file.accountId !== account.id)) throw recordNotFound();
    if (media.some((file) => !file!.ready)) throw new Answer(422, { error: 'Cannot attach files that have not finished processing. Try again in a moment!' });
    const inReplyToId = params.string('in_reply_to_id') || null;
    const parent = inReplyToId ? this.statuses.get(inReplyToId) : undefined;
    if (inReplyToId && !parent) throw recordNotFound();
    if (parent) parent.replies++;
    const status: StoredStatus = {
      id: this.#statusId(),
      accountId: account.id,
      text,
      spoilerText,
      visibility,
      mediaIds,
      idempotencyKey: typeof key === 'string' ? key : null,
      inReplyToId,
      createdAt: new Date(this.#now()),
      favourites: 0,
      reblogs: 0,
      replies: 0,
    };
    this.statuses.set(status.id, status);
    if (keyOf) this.#idempotency.set(keyOf, { statusId: status.id, at: this.#now() });
    return { status: 200, body: this.#statusJson(status) };
  }

  #getStatus(request: IncomingMessage, id: string) {
    const status = this.statuses.get(id);
    if (!status) throw recordNotFound();
    if (status.visibility === 'private' || status.visibility === 'direct') {
      if (this.#authenticate(request, 'read:statuses').id !== status.accountId) throw recordNotFound();
    }
    return { status: 200, body: this.#statusJson(status) };
  }

  /** The status is deleted by its author. */
  deleteStatus(id: string): void {
    this.statuses.delete(id);
  }

  #context(request: IncomingMessage, id: string) {
    const root = this.statuses.get(id);
    if (!root) throw recordNotFound();
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const viewer = bearer ? this.#authenticate(request, 'read:statuses').id : null;
    const visible = (status: StoredStatus) =>
      status.visibility === 'public' ||
      status.visibility === 'unlisted' ||
      status.accountId === viewer ||
      (status.inReplyToId !== null && this.statuses.get(status.inReplyToId)?.accountId === viewer);
    const below = (parent: string): StoredStatus[] =>
      [...this.statuses.values()].filter((status) => status.inReplyToId === parent).flatMap((status) => [status, ...below(status.id)]);
    const ancestors: StoredStatus[] = [];
    for (let at = root.inReplyToId && this.statuses.get(root.inReplyToId); at; at = at.inReplyToId && this.statuses.get(at.inReplyToId)) ancestors.unshift(at);
    const oldestFirst = (a: StoredStatus, b: StoredStatus) => a.createdAt.getTime() - b.createdAt.getTime();
    return {
      status: 200,
      body: {
        ancestors: ancestors.filter(visible).map((status) => this.#statusJson(status)),
        descendants: below(id)
          .filter(visible)
          .sort(oldestFirst)
          .map((status) => this.#statusJson(status)),
      },
    };
  }

  #statusJson(status: StoredStatus) {
    const account = this.accounts.get(status.accountId)!;
    return {
      id: status.id,
      created_at: status.createdAt.toISOString(),
      in_reply_to_id: status.inReplyToId,
      in_reply_to_account_id: status.inReplyToId ? (this.statuses.get(status.inReplyToId)?.accountId ?? null) : null,
      sensitive: status.spoilerText !== '',
      spoiler_text: status.spoilerText,
      visibility: status.visibility,
      language: 'en',
      uri: this.forged.statusUrl ?? `${this.url}/users/${account.username}/statuses/${status.id}`,
      url: this.forged.statusUrl ?? `${this.url}/@${account.username}/${status.id}`,
      replies_count: status.replies,
      reblogs_count: status.reblogs,
      favourites_count: status.favourites,
      edited_at: null,
      content: `<p>${escapeHtml(status.text)}</p>`,
      reblog: null,
      application: { name: 'stand-in client', website: null },
      account: this.#accountJson(account),
      media_attachments: status.mediaIds.map((mediaId) => this.#mediaJson(this.media.get(mediaId)!)),
      mentions: [],
      tags: [],
      emojis: [],
      card: null,
      poll: null,
    };
  }
}

interface Params {
  string(name: string): string;
  /** A single value as Rails' strong parameters permit a scalar: an array is dropped (''). */
  scalar(name: string): string;
  /** `name[]` (form) or an array (JSON) or a single value. */
  list(name: string): string[];
  file(name: string): File | null;
}

/** Form data (urlencoded or multipart) or JSON, as Mastodon's Rails controllers accept all three. */
async function readParams(request: IncomingMessage): Promise<Params> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {};
    return {
      string: (name) => (body[name] === undefined || body[name] === null ? '' : String(body[name])),
      scalar: (name) => (typeof body[name] === 'string' ? body[name] : ''),
      list: (name) => {
        const value = body[name] ?? body[`${name}[]`];
        return value === undefined || value === null ? [] : Array.isArray(value) ? value.map(String) : [String(value)];
      },
      file: () => null,
    };
  }
  const form = type.startsWith('multipart/form-data')
    ? await new Request('http://stand-in/', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData()
    : new URLSearchParams(raw.toString());
  return {
    string: (name) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    },
    scalar: (name) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    },
    list: (name) => [...form.getAll(`${name}[]`), ...form.getAll(name)].filter((value): value is string => typeof value === 'string'),
    file: (name) => {
      const value = (form as FormData).get?.(name);
      return value instanceof File ? value : null;
    },
  };
}
