// A stand-in for the Google Business Profile APIs, as Google's references document the calls the adapter makes (and as
// Google's own Node clients, @googleapis/mybusinessaccountmanagement and @googleapis/mybusinessbusinessinformation,
// call the account and location methods: test/http/googleBusiness.test.ts drives them against it). The three APIs'
// hosts are one server here (GOOGLE_BUSINESS_API_BASE_URL names it; src/providers/google_business/adapter.ts `apiHosts`).
//   Google OAuth 2.0 for web server apps (the shared OAuth stand-in, test/support/oauthNetwork.ts, with Google's paths,
//     the secret in the form, a refresh token for `access_type=offline`, none again on refresh)
//     https://developers.google.com/identity/protocols/oauth2/web-server
//   accounts.list  https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
//     (`{accounts: [{name: "accounts/…", accountName, type, verificationState}], nextPageToken}`; pageSize "the
//     default and maximum is 20")
//   accounts.locations.list  https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
//     (readMask required: 400 INVALID_ARGUMENT without it; only the masked fields answered; pageSize default 10,
//     at most 100; `{locations: [{name: "locations/…", title, storefrontAddress}], nextPageToken}`)
//   accounts.locations.localPosts.create / list / get  https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts
//     (a LocalPost: topicType required; summary up to 1,500 characters; `event` {title, schedule} required for
//     EVENT and OFFER; callToAction with a url but for CALL; media [{mediaFormat PHOTO, sourceUrl}], the photo
//     FETCHED by Google from sourceUrl (`mediaOrigin` maps PUBLIC_BASE_URL to where the test's service listens);
//     the answer with `name` accounts/…/locations/…/localPosts/…, `createTime`, `state` LIVE | PROCESSING |
//     REJECTED (`review`), `searchUrl`; list newest first, pageSize up to 100)
//   errors  Google's `{error: {code, message, status, details}}` (https://cloud.google.com/apis/design/errors): 401
//     UNAUTHENTICATED with `WWW-Authenticate: Bearer … error="invalid_token"` for a refused token; 403
//     PERMISSION_DENIED (ErrorInfo ACCESS_TOKEN_SCOPE_INSUFFICIENT) without business.manage; 400 INVALID_ARGUMENT with
//     a google.rpc.BadRequest's fieldViolations; 429 RESOURCE_EXHAUSTED (ErrorInfo RATE_LIMIT_EXCEEDED) without a
//     Retry-After header, in the words Google answers a project over its per-minute quota
//     (brentadamson/dataconnector#52, airbytehq/airbyte#45994: "Quota exceeded for quota metric 'Requests' and limit
//     'Requests per minute' of service …"), a google.rpc.RetryInfo added where the test asks for one.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export const businessManage = 'https://www.googleapis.com/auth/business.manage';

export interface BusinessLocation {
  /** The location's id: its resource name is `locations/<id>`. */
  id: string;
  title: string;
  locality?: string;
}

export interface BusinessAccount {
  /** `accounts/<id>`. */
  id: string;
  accountName: string;
  locations: BusinessLocation[];
}

export interface StoredLocalPost {
  name: string;
  /** The location's v4 parent, `accounts/…/locations/…`. */
  parent: string;
  body: Record<string, unknown>;
  createTime: string;
  state: 'LIVE' | 'PROCESSING' | 'REJECTED';
  searchUrl: string;
  photo: { contentType: string; bytes: number; sha256: string } | null;
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
  return true;
};

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
};

function googleError(res: ServerResponse, code: number, message: string, details: unknown[] = [], headers: Record<string, string> = {}): true {
  return send(res, code, { error: { code, message, status: statusNames[code], ...(details.length ? { details } : {}) } }, headers);
}

const badRequest = (res: ServerResponse, field: string, description: string) =>
  googleError(res, 400, 'Request contains an invalid argument.', [
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description }] },
  ]);

async function jsonOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A page of `items` from `pageToken` (an offset here), at most `pageSize`, with the next page's token. */
function page<T>(items: T[], query: URLSearchParams, defaultSize: number, maxSize: number): { items: T[]; nextPageToken?: string } {
  const size = Math.min(maxSize, Number(query.get('pageSize') ?? defaultSize) || defaultSize);
  const from = Number(query.get('pageToken') ?? 0);
  const next = from + size;
  return { items: items.slice(from, next), ...(next < items.length ? { nextPageToken: String(next) } : {}) };
}

export class GoogleBusinessStandIn extends OAuthNetwork {
  /** Fewer items a page than Google's maximum, for a test to see every page read (Google's own: 20 accounts, 100 locations). */
  pageSizeCap = Number.POSITIVE_INFINITY;
  /** The Business Profile accounts of each Google user, by the user's id. */
  readonly accounts = new Map<string, BusinessAccount[]>();
  readonly posts: StoredLocalPost[] = [];
  readonly apiRequests: { method: string; path: string }[] = [];
  /** Where the service's signed media URLs are reached: PUBLIC_BASE_URL (`from`) is the test's service (`to`). */
  mediaOrigin: { from: string; to: string } | undefined;
  /** The next this many API calls answer 429 RESOURCE_EXHAUSTED; `retryDelay` adds a google.rpc.RetryInfo. */
  throttle: { next: number; retryDelay?: string } = { next: 0 };
  /** The state Google gives posts it takes next, and what a later read of a PROCESSING post answers. */
  review: { created: StoredLocalPost['state']; reviewed: StoredLocalPost['state'] } = { created: 'LIVE', reviewed: 'LIVE' };
  /** Called once a post is made, before the answer: true holds the answer forever (a worker killed meanwhile). */
  holdCreate: (() => boolean) | undefined;

  constructor(redirectUris: string[], user: NetworkUser) {
    super(redirectUris, {
      paths: { authorize: '/o/oauth2/v2/auth', token: '/token', revoke: '/revoke' },
      clientAuthentication: 'post',
      refreshTokens: 'access_type=offline',
    });
    this.user = user;
    this.api = (req, res, url) => this.#handle(req, res, url);
  }

  /** The service's settings for this stand-in: Google's sign-in, tokens and the three APIs all here. */
  get env(): Record<string, string> {
    return {
      GOOGLE_BUSINESS_CLIENT_ID: this.clientId,
      GOOGLE_BUSINESS_CLIENT_SECRET: this.clientSecret,
      GOOGLE_BUSINESS_API_BASE_URL: this.url,
      GOOGLE_BUSINESS_AUTH_BASE_URL: this.url,
      GOOGLE_BUSINESS_TOKEN_BASE_URL: this.url,
    };
  }

  async #handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    this.apiRequests.push({ method: req.method ?? 'GET', path: url.pathname + url.search });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = this.userOf(token);
    if (!user)
      return googleError(
        res,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        [],
        { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      );
    if (!this.scopeOf(token).includes(businessManage))
      return googleError(res, 403, 'Request had insufficient authentication scopes.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com' },
      ]);
    if (this.throttle.next > 0) {
      this.throttle.next--;
      const service = url.pathname.startsWith('/v4/') ? 'mybusiness.googleapis.com' : 'mybusinessaccountmanagement.googleapis.com';
      return googleError(
        res,
        429,
        `Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service '${service}' for consumer 'project_number:1046198160504'.`,
        [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'RATE_LIMIT_EXCEEDED',
            domain: 'googleapis.com',
            metadata: { quota_metric: `${service}/default_requests`, quota_limit: 'DefaultRequestsPerMinutePerProject', quota_limit_value: '300', service },
          },
          ...(this.throttle.retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: this.throttle.retryDelay }] : []),
        ],
      );
    }
    const accounts = this.accounts.get(user.id) ?? [];
    if (req.method === 'GET' && url.pathname === '/v1/accounts') {
      const { items, nextPageToken } = page(accounts, url.searchParams, 20, Math.min(20, this.pageSizeCap));
      const listed = items.map((account) => ({ name: account.id, accountName: account.accountName, type: 'PERSONAL', verificationState: 'VERIFIED' }));
      return send(res, 200, { accounts: listed, ...(nextPageToken ? { nextPageToken } : {}) });
    }
    const locationsOf = /^\/v1\/(accounts\/[^/]+)\/locations$/.exec(url.pathname);
    if (req.method === 'GET' && locationsOf) {
      const account = accounts.find((candidate) => candidate.id === locationsOf[1]);
      if (!account) return googleError(res, 404, 'Requested entity was not found.');
      const mask = (url.searchParams.get('readMask') ?? '').split(',').filter(Boolean);
      if (!mask.length) return badRequest(res, 'read_mask', 'Field is required');
      const { items, nextPageToken } = page(account.locations, url.searchParams, 10, Math.min(100, this.pageSizeCap));
      const masked = items.map((location) => {
        const whole: Record<string, unknown> = {
          name: `locations/${location.id}`,
          title: location.title,
          ...(location.locality ? { storefrontAddress: { regionCode: 'DE', locality: location.locality, addressLines: ['Hauptstraße 1'] } } : {}),
        };
        return Object.fromEntries(Object.entries(whole).filter(([field]) => mask.includes(field)));
      });
      return send(res, 200, { locations: masked, ...(nextPageToken ? { nextPageToken } : {}) });
    }
    const postsOf = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts$/.exec(url.pathname);
    if (postsOf) {
      const parent = postsOf[1]!;
      const [accountName, locationId] = [parent.split('/locations/')[0], parent.split('/locations/')[1]];
      const owned = accounts.some((account) => account.id === accountName && account.locations.some((location) => location.id === locationId));
      if (!owned) return googleError(res, 403, 'The caller does not have permission');
      if (req.method === 'POST') return this.#create(res, parent, await jsonOf(req));
      if (req.method === 'GET') {
        const newest = this.posts.filter((post) => post.parent === parent).reverse();
        const { items, nextPageToken } = page(newest, url.searchParams, 10, Math.min(100, this.pageSizeCap));
        return send(res, 200, { localPosts: items.map(view), ...(nextPageToken ? { nextPageToken } : {}) });
      }
    }
    const post = req.method === 'GET' ? this.posts.find((candidate) => `/v4/${candidate.name}` === url.pathname) : undefined;
    if (post) {
      if (post.state === 'PROCESSING') post.state = this.review.reviewed;
      return send(res, 200, view(post));
    }
    return googleError(res, 404, 'Requested entity was not found.');
  }

  async #create(res: ServerResponse, parent: string, body: Record<string, unknown>): Promise<true> {
    const topicType = body.topicType;
    if (topicType !== 'STANDARD' && topicType !== 'EVENT' && topicType !== 'OFFER') return badRequest(res, 'topic_type', 'Field is required');
    if (typeof body.summary === 'string' && body.summary.length > 1500) return badRequest(res, 'summary', 'The summary must be at most 1500 characters.');
    const event = body.event as { title?: unknown; schedule?: { startDate?: unknown; endDate?: unknown } } | undefined;
    if (topicType !== 'STANDARD' && (!event?.title || !event.schedule?.startDate || !event.schedule.endDate))
      return badRequest(res, 'event', 'Event title and schedule are required for EVENT and OFFER posts.');
    const callToAction = body.callToAction as { actionType?: unknown; url?: unknown } | undefined;
    if (callToAction && callToAction.actionType !== 'CALL' && typeof callToAction.url !== 'string')
      return badRequest(res, 'call_to_action.url', 'A URL is required for this action type.');
    const media = (body.media as { mediaFormat?: unknown; sourceUrl?: unknown }[] | undefined) ?? [];
    let photo: StoredLocalPost['photo'] = null;
    if (media.length) {
      if (media.length > 1 || media[0]!.mediaFormat !== 'PHOTO') return badRequest(res, 'media', 'A post takes one photo.');
      const fetched = await this.#fetch(media[0]!.sourceUrl);
      if (typeof fetched === 'string') return badRequest(res, 'media[0].source_url', fetched);
      photo = fetched;
    }
    const id = randomBytes(9).toString('hex');
    const post: StoredLocalPost = {
      name: `${parent}/localPosts/${id}`,
      parent,
      body,
      createTime: new Date().toISOString(),
      state: this.review.created,
      searchUrl: `https://local.google.com/place?id=${parent.split('/').at(-1)}&use=posts&lpsid=${id}`,
      photo,
    };
    this.posts.push(post);
    if (this.holdCreate?.()) return true;
    return send(res, 200, view(post));
  }

  async #fetch(url: unknown): Promise<NonNullable<StoredLocalPost['photo']> | string> {
    if (typeof url !== 'string' || !URL.canParse(url)) return 'The photo URL is missing or invalid.';
    const reached = this.mediaOrigin && url.startsWith(this.mediaOrigin.from) ? this.mediaOrigin.to + url.slice(this.mediaOrigin.from.length) : url;
    const answer = await fetch(reached).catch(() => null);
    if (!answer?.ok) return `The photo could not be fetched (${answer?.status ?? 'no answer'}).`;
    const bytes = Buffer.from(await answer.arrayBuffer());
    return { contentType: answer.headers.get('content-type') ?? '', bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
}

/** A LocalPost as Google answers it. */
function view(post: StoredLocalPost) {
  return {
    ...post.body,
    name: post.name,
    languageCode: 'en',
    createTime: post.createTime,
    updateTime: post.createTime,
    state: post.state,
    ...(post.state === 'LIVE' ? { searchUrl: post.searchUrl } : {}),
  };
}
