// A stand-in for LinkedIn, as its reference documents the calls the adapter makes, kept honest by LinkedIn's official
// client, linkedin-api-client (test/http/linkedinStandIn.test.ts), which encodes the Rest.li 2.0 requests against it:
//   OAuth 2.0 (the shared OAuth stand-in, test/support/oauthNetwork.ts, with LinkedIn's paths, the client secret in
//     the form and refresh tokens kept across refreshes; its token answers as LinkedIn gives them: the code exchange
//     of an `openid` grant with an ID token from LinkedIn's issuer, <auth base URL> as https://www.linkedin.com/oauth
//     is, and refresh answers without `token_type`, see OAuthNetwork.quirks)
//     https://learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow
//     https://learn.microsoft.com/linkedin/shared/authentication/programmatic-refresh-tokens
//   the app's products  an app has "Sign In with LinkedIn using OpenID Connect" + "Share on LinkedIn" (`share`), or the
//     "Community Management API" alone (`community-management`: the portal requires it to be the only product,
//     verbb/social-poster#52; its member scope is r_basicprofile, n8n-io/n8n#7451), or, made before that rule, all of
//     them (unset; gitroomhq/postiz-app#523). Asking for a scope the products do not provide refuses the authorization
//     (OAuthNetwork.ungrantable); an API call the token's scopes do not open is 403 "Not enough permissions to access:
//     <resource>.GET.NO_VERSION" (LinkedIn's ACCESS_DENIED, https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling)
//   GET /v2/userinfo  https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
//     (openid)
//   GET /v2/me  https://learn.microsoft.com/linkedin/shared/integrations/people/profile-api (r_basicprofile:
//     {id, localizedFirstName, localizedLastName, vanityName})
//   GET /rest/organizationAcls, /rest/organizations/{id}
//     https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-access-control-by-role
//     (each of the member's roles, `role=` narrowing them; ADMINISTRATOR, CONTENT_ADMINISTRATOR and
//     DIRECT_SPONSORED_CONTENT_POSTER may post as the page, ANALYST may not)
//     https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-lookup-api
//   Images API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/images-api
//   Videos API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/videos-api
//   Posts API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api
//   Comments API  https://learn.microsoft.com/linkedin/marketing/community-management/shares/comments-api
//     (POST /rest/socialActions/{urn}/comments {actor, object, message: {text}}: the actor a person or organization
//     the member may act as, the object the post of the path; 201 with the comment and its URN; GET of the same path lists
//     a post's first-level comments as `elements` with `id`, `$URN`, `commentUrn`, `actor`, `object`,
//     `message.text`, `created.time` and `commentsSummary` (`totalFirstLevelComments`, as postiz's
//     linkedin.page.provider.ts SocialActionsResponse reads it); "Get Comments on Comments": the same calls on a
//     comment's URN nest a comment under it ({…, parentComment: that URN}, the object still the post) and list
//     those nested; "Delete a Comment": DELETE …/comments/{id}?actor= by its author, after which it is listed no
//     more, nor what is nested under it, and a comment under it answers 404). Comments nest one level: a
//     comment under a nested one is refused (422), as production clients say (Publora's LinkedIn comments
//     reference: "parentComment must name the top-level comment"). Reading a page's comments takes
//     r_organization_social (403 ACCESS_DENIED without it), writing as a page w_organization_social.
//   Paging  https://learn.microsoft.com/linkedin/shared/api-guide/concepts/pagination (`start`, `count`, default
//     10, at most the endpoint's maximum: `commentPageSize`; `paging {start, count, total, links}`)
//   little text  https://learn.microsoft.com/linkedin/marketing/community-management/shares/little-text-format
//   Share statistics  https://learn.microsoft.com/linkedin/marketing/community-management/organizations/share-statistics
//   Versioning  https://learn.microsoft.com/linkedin/marketing/versioning (no LinkedIn-Version: 400 VERSION_MISSING)
//   Errors, rate limits  https://learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling,
//     https://learn.microsoft.com/linkedin/shared/api-guide/concepts/rate-limits (429 without any reset header)
// Uploaded bytes are counted and hashed, never kept.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export interface LinkedInOrganization {
  id: string;
  localizedName: string;
  vanityName: string;
  /** The member's role on the page; ADMINISTRATOR where unset. */
  role?: 'ADMINISTRATOR' | 'CONTENT_ADMINISTRATOR' | 'DIRECT_SPONSORED_CONTENT_POSTER' | 'ANALYST' | 'RECRUITING_POSTER';
}

/** The scopes each product set provisions (see above). */
export const productScopes = {
  share: ['openid', 'profile', 'email', 'w_member_social'],
  'community-management': [
    'r_basicprofile',
    'w_member_social',
    'w_organization_social',
    'r_organization_social',
    'rw_organization_admin',
    'r_organization_admin',
  ],
};

const postingRoles = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'];

export interface StoredPost {
  id: string;
  author: string;
  /** As sent (little text). */
  commentary: string;
  /** As LinkedIn shows it: escapes read, and cut at the first reserved character left unescaped. */
  text: string;
  visibility: string;
  content?: { media?: { id: string; altText?: string }; multiImage?: { images: { id: string; altText?: string }[] } };
}

export interface StoredComment {
  id: string;
  urn: string;
  actor: string;
  object: string;
  /** The first-level comment it is nested under. */
  parentComment?: string;
  text: string;
  /** ms since the epoch */
  createdAt: number;
}

interface StoredImage {
  owner: string;
  bytes: number;
  sha256: string | null;
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE';
  pollsLeft: number;
}

export interface VideoPart {
  firstByte: number;
  lastByte: number;
  etag: string;
  /** PUTs received, and how many of them were answered. */
  received: number;
  answered: number;
}

interface StoredVideo {
  owner: string;
  size: number;
  uploadToken: string;
  parts: VideoPart[];
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE';
  pollsLeft: number;
}

export interface LinkedInStandInOptions {
  redirectUris: string[];
  /** The app's products (see above); unset: an older app with every product. */
  products?: keyof typeof productScopes;
  /** Bytes per video part (LinkedIn's are 4 MiB). */
  partBytes?: number;
  /** GET /rest/videos/{urn} answers PROCESSING this many times after the finalize. */
  processingPolls?: number;
  /**
   * An uploaded image is PROCESSING for this many reads of GET /rest/images/{urn} (default 0: AVAILABLE at once). A
   * member's token may not read its images (403; postiz linkedin.provider.ts: "images/documents only for organization
   * tokens"): its refused reads count the same, standing in for the time processing takes.
   */
  imageProcessingPolls?: number;
  /** How long each video part's PUT waits before answering (to stop a worker mid-upload). */
  partDelayMs?: number;
  /** The most comments one page of a comment list holds (the endpoint's maximum `count`). */
  commentPageSize?: number;
}

const error = (res: ServerResponse, status: number, message: string, extra: Record<string, unknown> = {}) =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, message, ...extra }));

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

/** LinkedIn's reading of little text: `\x` is x; a reserved character left unescaped ends what it can read. */
function readLittleText(commentary: string): string {
  let text = '';
  for (let i = 0; i < commentary.length; i++) {
    const character = commentary[i]!;
    if (character === '\\') text += commentary[++i] ?? '';
    else if (character === '#' && (i === 0 || /\s/.test(commentary[i - 1]!)) && /^[\p{L}\p{N}]/u.test(commentary.slice(i + 1))) text += character;
    else if ('|{}@[]()<>#*_~'.includes(character)) break;
    else text += character;
  }
  return text;
}

export class LinkedInStandIn {
  readonly oauth: OAuthNetwork;
  readonly posts = new Map<string, StoredPost>();
  readonly images = new Map<string, StoredImage>();
  readonly videos = new Map<string, StoredVideo>();
  readonly comments = new Map<string, StoredComment>();
  /** Comments are refused (403: the post's author turned comments off) while set. */
  refuseComments = false;
  /** The next this many comments answer 503 (LinkedIn unavailable), before anything is created. */
  commentsUnavailable = 0;
  /** The next this many comments are made, but answered 504 (a gateway timeout), as if the answer were lost. */
  lostCommentAnswers = 0;
  /** Organizations each member administers, by member id (`sub`). */
  readonly administers = new Map<string, LinkedInOrganization[]>();
  readonly requests: { method: string; path: string; version: string | undefined }[] = [];
  /** The next this many calls to /rest answer 429. */
  throttleNext = 0;
  /**
   * Upload URLs at this origin rather than the stand-in's own: an answer naming a host that is not LinkedIn's
   * (LinkedIn's own are at www.linkedin.com and api.linkedin.com, see src/providers/linkedin/api.ts).
   */
  uploadsAt: string | null = null;
  partDelayMs: number;
  url = '';
  readonly #server: Server;
  readonly #options: Required<Omit<LinkedInStandInOptions, 'redirectUris' | 'partDelayMs' | 'products'>>;
  readonly #tokensSeen = new Set<string>();
  readonly #products: keyof typeof productScopes;
  #sequence = 7_100_000_000_000_000_000n;

  private constructor(options: LinkedInStandInOptions) {
    this.oauth = new OAuthNetwork(options.redirectUris, {
      paths: { authorize: '/oauth/v2/authorization', token: '/oauth/v2/accessToken', revoke: '/oauth/v2/revoke' },
      clientAuthentication: 'post',
      refreshTokens: 'kept',
    });
    this.#options = {
      partBytes: options.partBytes ?? 4 * 1024 * 1024,
      processingPolls: options.processingPolls ?? 1,
      imageProcessingPolls: options.imageProcessingPolls ?? 0,
      commentPageSize: options.commentPageSize ?? 100,
    };
    this.partDelayMs = options.partDelayMs ?? 0;
    this.#products = options.products ?? 'share';
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((caught: unknown) => error(res, 500, String(caught)));
    });
  }

  static async start(options: LinkedInStandInOptions): Promise<LinkedInStandIn> {
    const standIn = new LinkedInStandIn(options);
    await standIn.oauth.start();
    standIn.oauth.quirks = { idTokenIssuer: standIn.authBaseUrl, tokenType: 'not-on-refresh', refusalStatus: 400 };
    if (options.products) {
      standIn.oauth.grantable = productScopes[options.products];
      standIn.oauth.ungrantable = 'refused';
    }
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`;
    return standIn;
  }

  /** LINKEDIN_AUTH_BASE_URL */
  get authBaseUrl(): string {
    return `${this.oauth.url}/oauth`;
  }

  /** The service's settings of the operator's app at this stand-in. */
  get appSettings(): Record<string, string> {
    return {
      LINKEDIN_CLIENT_ID: this.oauth.clientId,
      LINKEDIN_CLIENT_SECRET: this.oauth.clientSecret,
      LINKEDIN_API_BASE_URL: this.url,
      LINKEDIN_AUTH_BASE_URL: this.authBaseUrl,
    };
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await this.oauth.stop();
  }

  /** The member who authorizes next, and the pages they administer. */
  signInAs(member: NetworkUser, organizations: LinkedInOrganization[] = []): void {
    this.oauth.user = member;
    this.administers.set(member.id, organizations);
  }

  /** Every access token used so far stops working (LinkedIn's tokens expire after 60 days); refreshed ones work. */
  expireTokens(): void {
    for (const token of this.#tokensSeen) this.oauth.revoked.add(token);
  }

  /** An access token for the member signed in, by the authorization code flow as an app would run it (by default for the app's products' scopes). */
  async accessToken(redirectUri: string, scope = productScopes[this.#products].join(' ')): Promise<string> {
    const authorize = new URL(`${this.authBaseUrl}/v2/authorization`);
    authorize.search = new URLSearchParams({ response_type: 'code', client_id: this.oauth.clientId, redirect_uri: redirectUri, scope, state: 's' }).toString();
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const answer = await fetch(`${this.authBaseUrl}/v2/accessToken`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: this.oauth.clientId,
        client_secret: this.oauth.clientSecret,
      }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  #nextId(): string {
    this.#sequence += 1n;
    return String(this.#sequence);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const version = req.headers['linkedin-version'] as string | undefined;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, version });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    this.#tokensSeen.add(token);
    const member = this.oauth.userOf(token);
    if (!member) return error(res, 401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) return this.#upload(req, res, url.pathname);
    const scopes = this.oauth.scopeOf(token);
    const denied = (resource: string) =>
      error(res, 403, `Not enough permissions to access: ${resource}.GET.NO_VERSION`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    if (url.pathname === '/v2/userinfo' && req.method === 'GET') return scopes.includes('openid') ? this.#userinfo(res, member) : denied('userinfo');
    if (url.pathname === '/v2/me' && req.method === 'GET') return scopes.includes('r_basicprofile') ? this.#me(res, member) : denied('me');
    if (!url.pathname.startsWith('/rest/')) return error(res, 404, `No route ${url.pathname}`);
    if (!version) {
      return error(res, 400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', { code: 'VERSION_MISSING' });
    }
    if (!/^\d{6}$/.test(version)) return error(res, 426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' });
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') return error(res, 400, 'Rest.li protocol 2.0.0 is required for this resource');
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return error(res, 429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.');
    }
    const body = req.method === 'POST' ? await jsonOf(req) : undefined;
    const route = `${req.method} ${url.pathname}`;
    const action = url.searchParams.get('action');
    if (route === 'GET /rest/organizationAcls') return this.#acls(res, member, url.searchParams);
    if (req.method === 'GET' && url.pathname.startsWith('/rest/organizations/')) return this.#organization(res, url.pathname);
    if (route === 'POST /rest/images' && action === 'initializeUpload') return this.#initializeImage(res, member, body);
    if (route === 'POST /rest/videos' && action === 'initializeUpload') return this.#initializeVideo(res, member, body);
    if (route === 'POST /rest/videos' && action === 'finalizeUpload') return this.#finalizeVideo(res, body);
    if (req.method === 'GET' && url.pathname.startsWith('/rest/images/'))
      return this.#image(res, decodeURIComponent(url.pathname.slice('/rest/images/'.length)), version);
    if (req.method === 'GET' && url.pathname.startsWith('/rest/videos/'))
      return this.#video(res, decodeURIComponent(url.pathname.slice('/rest/videos/'.length)));
    if (route === 'POST /rest/posts') return this.#createPost(res, member, body);
    if (route === 'GET /rest/posts' && url.searchParams.get('q') === 'author') return this.#postsBy(res, member, url.searchParams);
    const commented = /^\/rest\/socialActions\/([^/]+)\/comments$/.exec(url.pathname);
    if (req.method === 'POST' && commented) return this.#createComment(res, member, scopes, decodeURIComponent(commented[1]!), body);
    if (req.method === 'GET' && commented) return this.#commentsOn(res, member, scopes, decodeURIComponent(commented[1]!), url.searchParams);
    const deleted = /^\/rest\/socialActions\/([^/]+)\/comments\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && deleted) return this.#deleteComment(res, member, decodeURIComponent(deleted[1]!), deleted[2]!, url.searchParams);
    if (route === 'GET /rest/organizationalEntityShareStatistics') return this.#shareStatistics(res, member, url.searchParams);
    error(res, 404, `No route ${route}`);
  }

  #userinfo(res: ServerResponse, member: NetworkUser): void {
    const [given, ...family] = member.name.split(' ');
    json(res, 200, {
      sub: member.id,
      email_verified: true,
      name: member.name,
      locale: { country: 'US', language: 'en' },
      given_name: given,
      family_name: family.join(' '),
      email: member.username,
      ...(member.profileImageUrl ? { picture: member.profileImageUrl } : {}),
    });
  }

  #me(res: ServerResponse, member: NetworkUser): void {
    const [given, ...family] = member.name.split(' ');
    json(res, 200, { id: member.id, localizedFirstName: given, localizedLastName: family.join(' '), vanityName: member.username.split('@')[0] });
  }

  #mayAct(member: NetworkUser, urn: unknown): boolean {
    if (urn === `urn:li:person:${member.id}`) return true;
    return (this.administers.get(member.id) ?? []).some(
      (organization) => urn === `urn:li:organization:${organization.id}` && postingRoles.includes(organization.role ?? 'ADMINISTRATOR'),
    );
  }

  #acls(res: ServerResponse, member: NetworkUser, query: URLSearchParams): void {
    if (query.get('q') !== 'roleAssignee') return error(res, 400, 'Finder requires q=roleAssignee or q=organization');
    const role = query.get('role');
    const roles = (this.administers.get(member.id) ?? []).map((organization) => ({ organization, role: organization.role ?? 'ADMINISTRATOR' }));
    const elements = roles
      .filter((assigned) => !role || assigned.role === role)
      .map(({ organization, role: assigned }) => ({
        roleAssignee: `urn:li:person:${member.id}`,
        state: 'APPROVED',
        role: assigned,
        organization: `urn:li:organization:${organization.id}`,
      }));
    json(res, 200, { paging: { count: 100, start: 0, total: elements.length }, elements });
  }

  #organization(res: ServerResponse, path: string): void {
    const id = decodeURIComponent(path.slice('/rest/organizations/'.length));
    const organization = [...this.administers.values()].flat().find((candidate) => candidate.id === id);
    if (!organization) return error(res, 404, `Organization ${id} does not exist`);
    json(res, 200, { id: Number(organization.id), localizedName: organization.localizedName, vanityName: organization.vanityName });
  }

  #initializeImage(res: ServerResponse, member: NetworkUser, body: any): void {
    const owner = body?.initializeUploadRequest?.owner;
    if (!this.#mayAct(member, owner)) return error(res, 403, `Not enough permissions to upload images as ${owner}`, { serviceErrorCode: 100 });
    const image = `urn:li:image:D4E${this.#nextId()}`;
    this.images.set(image, { owner, bytes: 0, sha256: null, status: 'WAITING_UPLOAD', pollsLeft: this.#options.imageProcessingPolls });
    json(res, 200, {
      value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${this.uploadsAt ?? this.url}/upload/image/${encodeURIComponent(image)}`, image },
    });
  }

  #initializeVideo(res: ServerResponse, member: NetworkUser, body: any): void {
    const request = body?.initializeUploadRequest;
    if (!this.#mayAct(member, request?.owner))
      return error(res, 403, `Not enough permissions to upload videos as ${request?.owner}`, { serviceErrorCode: 100 });
    if (!Number.isInteger(request.fileSizeBytes) || request.fileSizeBytes < 1) return error(res, 422, 'fileSizeBytes is required');
    const video = `urn:li:video:D5E${this.#nextId()}`;
    const parts: VideoPart[] = [];
    for (let first = 0; first < request.fileSizeBytes; first += this.#options.partBytes) {
      const last = Math.min(request.fileSizeBytes, first + this.#options.partBytes) - 1;
      parts.push({ firstByte: first, lastByte: last, etag: `/ambry-video/signedId/${randomBytes(8).toString('hex')}`, received: 0, answered: 0 });
    }
    const uploadToken = randomBytes(6).toString('hex');
    this.videos.set(video, {
      owner: request.owner,
      size: request.fileSizeBytes,
      uploadToken,
      parts,
      status: 'WAITING_UPLOAD',
      pollsLeft: this.#options.processingPolls,
    });
    json(res, 200, {
      value: {
        uploadUrlsExpireAt: Date.now() + 3600_000,
        video,
        uploadInstructions: parts.map((part, index) => ({
          uploadUrl: `${this.uploadsAt ?? this.url}/upload/video/${encodeURIComponent(video)}/${index}`,
          firstByte: part.firstByte,
          lastByte: part.lastByte,
        })),
        uploadToken,
      },
    });
  }

  async #upload(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const [, , kind, encoded, index] = path.split('/');
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      hash.update(chunk);
    }
    const urn = decodeURIComponent(encoded ?? '');
    if (kind === 'image') {
      const image = this.images.get(urn);
      if (!image) return error(res, 404, 'Unknown upload');
      Object.assign(image, { bytes, sha256: hash.digest('hex'), status: image.pollsLeft > 0 ? 'PROCESSING' : 'AVAILABLE' });
      return void res.writeHead(201).end();
    }
    const part = this.videos.get(urn)?.parts[Number(index)];
    if (!part) return error(res, 404, 'Unknown upload');
    part.received++;
    if (bytes !== part.lastByte - part.firstByte + 1) return error(res, 400, `Part ${index} must be ${part.lastByte - part.firstByte + 1} bytes, got ${bytes}`);
    if (this.partDelayMs) await sleep(this.partDelayMs);
    // A client that went away meanwhile (a killed worker) never heard the answer.
    if (req.socket.destroyed) return;
    part.answered++;
    res.writeHead(200, { etag: part.etag }).end();
  }

  #finalizeVideo(res: ServerResponse, body: any): void {
    const request = body?.finalizeUploadRequest;
    const video = this.videos.get(request?.video);
    if (!video) return error(res, 404, `Video ${request?.video} does not exist`);
    if (request.uploadToken !== video.uploadToken) return error(res, 400, 'The upload token does not match the video');
    if (video.status !== 'WAITING_UPLOAD') return error(res, 400, 'The video upload was already finalized');
    const expected = video.parts.map((part) => part.etag);
    if (JSON.stringify(request.uploadedPartIds) !== JSON.stringify(expected) || video.parts.some((part) => part.answered === 0)) {
      return error(res, 400, 'uploadedPartIds do not match the uploaded parts');
    }
    video.status = 'PROCESSING';
    json(res, 200, {});
  }

  #image(res: ServerResponse, urn: string, version: string): void {
    const image = this.images.get(urn);
    if (!image) return error(res, 404, `Image ${urn} does not exist`);
    if (image.status === 'PROCESSING' && image.pollsLeft-- <= 0) image.status = 'AVAILABLE';
    if (!image.owner.startsWith('urn:li:organization:'))
      return error(res, 403, `Not enough permissions to access: images.GET.${version}01`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    json(res, 200, { owner: image.owner, id: urn, status: image.status });
  }

  #video(res: ServerResponse, urn: string): void {
    const video = this.videos.get(urn);
    if (!video) return error(res, 404, `Video ${urn} does not exist`);
    if (video.status === 'PROCESSING' && video.pollsLeft-- <= 0) video.status = 'AVAILABLE';
    json(res, 200, { owner: video.owner, id: urn, status: video.status });
  }

  #createPost(res: ServerResponse, member: NetworkUser, body: any): void {
    if (!this.#mayAct(member, body?.author))
      return error(res, 403, `Not enough permissions to post as ${body?.author}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    if (typeof body.commentary !== 'string') return error(res, 422, 'ERROR :: /commentary :: field is required but not found and has no default value');
    const visibilities = body.author.startsWith('urn:li:organization:') ? ['PUBLIC', 'LOGGED_IN'] : ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'];
    if (!visibilities.includes(body.visibility)) return error(res, 422, `ERROR :: /visibility :: "${body.visibility}" is not an enum symbol for this author`);
    if (!['MAIN_FEED', 'NONE'].includes(body.distribution?.feedDistribution))
      return error(res, 422, 'ERROR :: /distribution/feedDistribution :: field is required');
    if (body.lifecycleState !== 'PUBLISHED') return error(res, 422, `ERROR :: /lifecycleState :: "${body.lifecycleState}" cannot be created through this API`);
    const refusal = this.#contentRefusal(body.author, body.content);
    if (refusal) return error(res, 422, refusal);
    const id = `urn:li:share:${this.#nextId()}`;
    this.posts.set(id, {
      id,
      author: body.author,
      commentary: body.commentary,
      text: readLittleText(body.commentary),
      visibility: body.visibility,
      content: body.content,
    });
    res.writeHead(201, { 'x-restli-id': id, 'x-linkedin-id': id }).end();
  }

  #createComment(res: ServerResponse, member: NetworkUser, scopes: readonly string[], urn: string, body: any): void {
    if (this.commentsUnavailable > 0) {
      this.commentsUnavailable--;
      return error(res, 503, 'Service Unavailable');
    }
    if (!this.#mayAct(member, body?.actor))
      return error(res, 403, `Not enough permissions to comment as ${body?.actor}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    if (String(body.actor).startsWith('urn:li:organization:') && !scopes.includes('w_organization_social'))
      return error(res, 403, 'Not enough permissions to access: socialActions.comments.CREATE', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    const parent = urn.startsWith('urn:li:comment:') ? this.comments.get(urn) : undefined;
    if (urn.startsWith('urn:li:comment:') && !parent) return error(res, 404, `Entity ${urn} does not exist`);
    const post = parent?.object ?? urn;
    if (body.object !== post) return error(res, 422, 'ERROR :: /object :: must be the post the comment is on');
    if (parent && body.parentComment !== urn) return error(res, 422, 'ERROR :: /parentComment :: must be the comment of the path');
    if (parent?.parentComment) return error(res, 422, 'ERROR :: /parentComment :: a nested comment cannot have comments nested under it');
    const text = body.message?.text;
    if (typeof text !== 'string' || !text.trim()) return error(res, 422, 'ERROR :: /message/text :: field is required but not found and has no default value');
    if ([...text].length > 1250) return error(res, 422, 'ERROR :: /message/text :: length exceeds 1250 characters');
    if (!this.posts.has(post)) return error(res, 404, `Entity ${post} does not exist`);
    if (this.refuseComments) return error(res, 403, 'Comments are disabled on this post', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    const id = this.#nextId();
    const comment: StoredComment = {
      id,
      urn: `urn:li:comment:(${post},${id})`,
      actor: body.actor,
      object: post,
      ...(parent ? { parentComment: urn } : {}),
      text,
      createdAt: Date.now(),
    };
    this.comments.set(comment.urn, comment);
    if (this.lostCommentAnswers > 0) {
      this.lostCommentAnswers--;
      return error(res, 504, 'Gateway Timeout');
    }
    json(res, 201, this.#commentElement(comment), { 'x-restli-id': comment.urn });
  }

  #commentElement(comment: StoredComment) {
    const nested = [...this.comments.values()].filter((candidate) => candidate.parentComment === comment.urn).length;
    return {
      id: comment.id,
      $URN: comment.urn,
      commentUrn: comment.urn,
      actor: comment.actor,
      object: comment.object,
      message: { text: comment.text, attributes: [] },
      created: { actor: comment.actor, time: comment.createdAt },
      lastModified: { actor: comment.actor, time: comment.createdAt },
      ...(comment.parentComment
        ? { parentComment: comment.parentComment }
        : { commentsSummary: { totalFirstLevelComments: nested, aggregatedTotalComments: nested, selectedComments: [] } }),
    };
  }

  /** A post's first-level comments, or the comments nested under a comment, a page at a time (oldest first). */
  #commentsOn(res: ServerResponse, member: NetworkUser, scopes: readonly string[], urn: string, query: URLSearchParams): void {
    const parent = urn.startsWith('urn:li:comment:') ? this.comments.get(urn) : undefined;
    if (urn.startsWith('urn:li:comment:') && !parent) return error(res, 404, `Entity ${urn} does not exist`);
    const post = this.posts.get(parent?.object ?? urn);
    if (!post) return error(res, 404, `Entity ${urn} does not exist`);
    if (!this.#mayAct(member, post.author)) return error(res, 403, `Not enough permissions to read the comments of ${urn}`, { serviceErrorCode: 100 });
    if (post.author.startsWith('urn:li:organization:') && !scopes.includes('r_organization_social'))
      return error(res, 403, 'Not enough permissions to access: socialActions.comments.GET_ALL', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    const all = [...this.comments.values()].filter((comment) => (parent ? comment.parentComment === urn : comment.object === urn && !comment.parentComment));
    const start = Number(query.get('start') ?? 0);
    const count = Math.min(Number(query.get('count') ?? 10), this.#options.commentPageSize);
    const elements = all.slice(start, start + count).map((comment) => this.#commentElement(comment));
    json(res, 200, { paging: { start, count, total: all.length, links: [] }, elements });
  }

  /** Its author deletes a comment: it and what is nested under it are gone. */
  #deleteComment(res: ServerResponse, member: NetworkUser, on: string, id: string, query: URLSearchParams): void {
    const comment = [...this.comments.values()].find((candidate) => candidate.id === id && (candidate.object === on || candidate.parentComment === on));
    if (!comment) return error(res, 404, `Comment ${id} does not exist`);
    const actor = query.get('actor');
    if (actor !== comment.actor || !this.#mayAct(member, actor))
      return error(res, 403, `Not enough permissions to delete comment ${id}`, { serviceErrorCode: 100 });
    for (const candidate of [...this.comments.values()])
      if (candidate === comment || candidate.parentComment === comment.urn) this.comments.delete(candidate.urn);
    res.writeHead(204).end();
  }

  #contentRefusal(author: string, content: StoredPost['content']): string | null {
    if (!content) return null;
    const media = content.media ? [content.media] : (content.multiImage?.images ?? []);
    if (content.multiImage && (media.length < 2 || media.length > 20)) return 'ERROR :: /content/multiImage/images :: a multi-image post takes 2 to 20 images';
    for (const { id } of media) {
      const image = this.images.get(id);
      const video = this.videos.get(id);
      if (image && (image.owner !== author || image.sha256 === null)) return `Image ${id} is not uploaded for ${author}`;
      if (image && image.status !== 'AVAILABLE') return `Image ${id} is not available: ${image.status}`;
      if (video && (video.owner !== author || video.status !== 'AVAILABLE')) return `Video ${id} is not available: ${video.status}`;
      if (!image && !video) return `Media ${id} does not exist`;
    }
    return null;
  }

  #postsBy(res: ServerResponse, member: NetworkUser, query: URLSearchParams): void {
    const author = query.get('author');
    if (!this.#mayAct(member, author)) return error(res, 403, `Not enough permissions to read the posts of ${author}`, { serviceErrorCode: 100 });
    const count = Number(query.get('count') ?? 10);
    const elements = [...this.posts.values()]
      .filter((post) => post.author === author)
      .reverse()
      .slice(0, count);
    json(res, 200, { paging: { start: 0, count, links: [] }, elements });
  }

  #shareStatistics(res: ServerResponse, member: NetworkUser, query: URLSearchParams): void {
    const organization = query.get('organizationalEntity');
    if (query.get('q') !== 'organizationalEntity' || !organization?.startsWith('urn:li:organization:') || !this.#mayAct(member, organization)) {
      return error(res, 403, 'Not enough permissions to read the statistics of this organization', { serviceErrorCode: 100 });
    }
    const shares = /^List\((.*)\)$/.exec(query.get('shares') ?? query.get('ugcPosts') ?? '')?.[1]?.split(',') ?? [];
    const elements = shares
      .filter((urn) => this.posts.get(urn)?.author === organization)
      .map((urn, index) => ({
        organizationalEntity: organization,
        share: urn,
        totalShareStatistics: {
          uniqueImpressionsCount: 40 + index,
          shareCount: 2,
          engagement: 0.1,
          clickCount: 5,
          likeCount: 7,
          impressionCount: 60,
          commentCount: 3,
        },
      }));
    json(res, 200, { paging: { count: 10, start: 0, links: [] }, elements });
  }
}

async function jsonOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
