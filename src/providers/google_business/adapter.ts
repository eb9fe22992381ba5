// Google Business Profile: posts of a location (one connected account per location the person manages).
//   OAuth     Google's (kit/googleOAuth.ts) with https://www.googleapis.com/auth/business.manage, the only scope of the
//             Business Profile APIs (https://developers.google.com/my-business/content/basic-setup#request-access).
//   accounts  GET mybusinessaccountmanagement.googleapis.com/v1/accounts
//             (https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list: `accounts`
//             [{name "accounts/…", accountName, type}], `nextPageToken`)
//   locations GET mybusinessbusinessinformation.googleapis.com/v1/{accounts/*}/locations?readMask=name,title,storefrontAddress
//             (https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list:
//             readMask required, `locations` [{name "locations/…", title, storefrontAddress}], `nextPageToken`); each
//             becomes an account whose remote id is the v4 parent `accounts/…/locations/…`, all with the same tokens.
//   posts     POST mybusiness.googleapis.com/v4/{accounts/*/locations/*}/localPosts with a LocalPost
//             (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create): the
//             answer's `name`, `state` (LIVE, PROCESSING while Google reviews it, REJECTED) and `searchUrl`. A post
//             in PROCESSING waits (`processing`) and the next attempt reads it again
//             (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/get).
//   hosts     the three APIs are on three hosts; GOOGLE_BUSINESS_API_BASE_URL names the posts API's, and where it is
//             set elsewhere than Google's (a proxy, a test's stand-in) all three are reached there (`apiHosts`).
//   errors    Google's `{error: {code, message, status, details}}` (https://cloud.google.com/apis/design/errors): 401
//             UNAUTHENTICATED → refreshed, then NEEDS_RECONNECT; 429 RESOURCE_EXHAUSTED waits the `google.rpc.RetryInfo`
//             delay where Google gives one, else a minute (the quotas are per minute); 400 INVALID_ARGUMENT is a
//             refusal naming the `google.rpc.BadRequest` fieldViolations.
//   quotas    300 requests a minute per Google Cloud project and 10 edits a minute per location
//             (https://developers.google.com/my-business/content/limits): kit quotas, so a target past either waits.
//   no duplicates  (`look-up`) localPosts.create takes no idempotency key. The time of a publish's first attempt is
//             kept as a step before the create; a create an attempt started and did not see answered is looked up
//             among the location's posts (localPosts.list, newest first): one of the same topic and summary made since
//             then is the target's, and nothing is posted again.
import {
  ProviderError,
  type ItemMetrics,
  type ProviderAdapter,
  type ProviderTokens,
  type PublishOutcome,
  type PublishRequest,
  type RemoteIdentity,
} from '../adapter.ts';
import { retryAfterMs, type ResponseHeaders } from '../http.ts';
import { googleOAuthServer, googleScope } from '../kit/googleOAuth.ts';
import { apiOptions, linkOf, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { NetworkApi, type NetworkApiOptions } from '../kit/networkApi.ts';
import { tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import type { OAuthAdapterDependencies } from '../network.ts';
import { postsApiUrl } from './network.ts';
import { googleBusinessRules } from './network.ts';

export const businessScope = googleScope('business.manage');

/** The project's quota is app-wide, each workspace allowed its share (APP_QUOTA_WORKSPACE_SHARE); the edits are per location. */
const googleBusinessQuotas = (workspaceShare?: number): Quota[] => [
  {
    name: 'Business Profile APIs: 300 requests a minute per Google Cloud project',
    scope: 'app',
    windowSeconds: 60,
    limit: 300,
    costPerPublish: 1,
    workspaceShare,
  },
  { name: 'Business Profile: 10 edits a minute per location', scope: 'account', windowSeconds: 60, limit: 10, costPerPublish: 1 },
];

export interface GoogleBusinessAdapterOptions extends OAuthAdapterOptions {
  /** APP_QUOTA_WORKSPACE_SHARE: the percentage of the project's quota one workspace may use (100: none). */
  workspaceShare?: number;
}

/** How long a post Google is reviewing (PROCESSING) waits before it is read again. */
const reviewCheckAfterMs = 60_000;
/** How far Google's clock may be behind ours when an interrupted create is looked up. */
const clockSkewMs = 5 * 60_000;

/** Where each of the three APIs is: Google's hosts, or all at the one base the operator set. */
export function apiHosts(apiBaseUrl: string): { accounts: string; locations: string; posts: string } {
  if (apiBaseUrl !== postsApiUrl) return { accounts: apiBaseUrl, locations: apiBaseUrl, posts: apiBaseUrl };
  return {
    accounts: 'https://mybusinessaccountmanagement.googleapis.com',
    locations: 'https://mybusinessbusinessinformation.googleapis.com',
    posts: postsApiUrl,
  };
}

interface GoogleErrorDetail {
  '@type'?: string;
  retryDelay?: string;
  fieldViolations?: { field?: string; description?: string }[];
}

interface GoogleError {
  error?: { code?: number; message?: string; status?: string; details?: GoogleErrorDetail[] } | string;
  error_description?: string;
}

const detailsOf = (body: unknown): GoogleErrorDetail[] => {
  const error = (body as GoogleError | null)?.error;
  return typeof error === 'object' ? (error.details ?? []) : [];
};

function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? `Google Business Profile: ${body.slice(0, 300)}` : undefined;
  const { error, error_description: description } = body as GoogleError;
  const message = typeof error === 'object' ? error.message : description;
  if (!message) return undefined;
  const violations = detailsOf(body).flatMap((detail) => detail.fieldViolations ?? []);
  const named = violations.map((violation) => `${violation.field ?? '?'}: ${violation.description ?? ''}`.trim()).join('; ');
  return `Google Business Profile: ${message}${named ? ` (${named})` : ''}`;
}

/** "30s" / "1.5s" (a google.protobuf.Duration in JSON) as milliseconds. */
const durationMs = (text: string | undefined) => (text && /^\d+(\.\d+)?s$/.test(text) ? Number.parseFloat(text) * 1000 : undefined);

function classify({ status, headers, body, reason }: { status: number; headers: ResponseHeaders; body: unknown; reason: string }): ProviderError | undefined {
  if (status !== 429) return undefined;
  const retryInfo = detailsOf(body).find((detail) => detail['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
  const waitMs = durationMs(retryInfo?.retryDelay) ?? retryAfterMs(headers) ?? 60_000;
  return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: waitMs });
}

class BusinessApi extends NetworkApi {
  constructor(options: NetworkApiOptions) {
    super(options, { network: 'Google Business Profile', reasonOf, classify });
  }

  /** Every page of a Google list (`pageToken` / `nextPageToken`), its `key` items one after another. */
  async *pages<T>(path: string, key: string, accessToken: string): AsyncGenerator<T> {
    let pageToken: string | undefined;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const url = pageToken ? `${path}${separator}pageToken=${encodeURIComponent(pageToken)}` : path;
      const { body } = await this.send<Record<string, unknown>>({ method: 'GET', path: url, accessToken });
      yield* (body[key] as T[] | undefined) ?? [];
      pageToken = typeof body.nextPageToken === 'string' && body.nextPageToken ? body.nextPageToken : undefined;
    } while (pageToken);
  }
}

interface Location {
  name?: string;
  title?: string;
  storefrontAddress?: { locality?: string; addressLines?: string[] };
}

interface LocalPost {
  name?: string;
  state?: string;
  searchUrl?: string;
  summary?: string;
  topicType?: string;
  createTime?: string;
}

interface Created {
  name: string;
  state: string;
  searchUrl: string | null;
}

interface BusinessSettings {
  button?: string;
  buttonUrl?: string;
  eventTitle?: string;
  startDate?: string;
  startTime?: string;
  endDate?: string;
  endTime?: string;
  couponCode?: string;
  redeemOnlineUrl?: string;
  termsConditions?: string;
}

const topicTypes: Record<string, string> = { update: 'STANDARD', offer: 'OFFER', event: 'EVENT' };

/** A `YYYY-MM-DD` as google.type.Date, an `HH:MM` as google.type.TimeOfDay. */
const dateOf = (text: string) => {
  const [year, month, day] = text.split('-').map(Number);
  return { year, month, day };
};
const timeOf = (text: string) => {
  const [hours, minutes] = text.split(':').map(Number);
  return { hours, minutes, seconds: 0, nanos: 0 };
};

/** The LocalPost a target makes (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#LocalPost). */
export function localPostOf(request: Pick<PublishRequest, 'placement' | 'caption' | 'media' | 'settings'>): Record<string, unknown> {
  const settings = request.settings as BusinessSettings;
  const topicType = topicTypes[request.placement] ?? 'STANDARD';
  const { eventTitle, startDate, endDate, startTime, endTime, couponCode, redeemOnlineUrl, termsConditions } = settings;
  if (topicType !== 'STANDARD' && !(eventTitle && startDate && endDate))
    throw new ProviderError(
      'PROVIDER_REJECTED',
      `A Google Business Profile ${request.placement} needs its title, start and end date (eventTitle, startDate, endDate).`,
      false,
    );
  // Left-out fields are undefined, which the JSON body drops.
  const offer = { couponCode, redeemOnlineUrl, termsConditions };
  const photo = request.media[0];
  return {
    topicType,
    ...(request.caption ? { summary: request.caption } : {}),
    ...(topicType !== 'STANDARD'
      ? {
          event: {
            title: eventTitle,
            schedule: {
              startDate: dateOf(startDate!),
              endDate: dateOf(endDate!),
              ...(startTime ? { startTime: timeOf(startTime) } : {}),
              ...(endTime ? { endTime: timeOf(endTime) } : {}),
            },
          },
        }
      : {}),
    ...(topicType === 'OFFER' && Object.values(offer).some(Boolean) ? { offer } : {}),
    ...(settings.button && topicType !== 'OFFER'
      ? { callToAction: { actionType: settings.button, ...(settings.buttonUrl ? { url: settings.buttonUrl } : {}) } }
      : {}),
    ...(photo ? { media: [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }] } : {}),
  };
}

function identityOf(location: Location, accountName: string): RemoteIdentity | null {
  const id = location.name?.replace(/^locations\//, '');
  if (!id) return null;
  const title = location.title || id;
  const locality = location.storefrontAddress?.locality;
  return { remoteId: `${accountName}/locations/${id}`, username: id, displayName: locality ? `${title} (${locality})` : title, avatarUrl: null };
}

function businessProfile(accounts: BusinessApi, locations: BusinessApi): OAuthProfile {
  return {
    network: 'Google Business Profile',
    server: (app) => googleOAuthServer(app, [businessScope]),
    requiredScopes: { scopes: [businessScope], advice: 'connect again and allow managing the Business Profile' },
    identities: async (tokens: ProviderTokens) => {
      const found: { identity: RemoteIdentity; tokens: ProviderTokens }[] = [];
      for await (const account of accounts.pages<{ name?: string }>('/v1/accounts', 'accounts', tokens.accessToken)) {
        if (!account.name) continue;
        const path = `/v1/${account.name}/locations?readMask=name,title,storefrontAddress&pageSize=100`;
        for await (const location of locations.pages<Location>(path, 'locations', tokens.accessToken)) {
          const identity = identityOf(location, account.name);
          if (identity) found.push({ identity, tokens });
        }
      }
      if (!found.length)
        throw new ProviderError(
          'PROVIDER_REJECTED',
          'Google Business Profile: this Google account manages no business locations. Add one at Google, then connect again.',
          false,
        );
      return found;
    },
    refresh: 'standard',
  };
}

export class GoogleBusinessAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #posts: BusinessApi;

  constructor(options: GoogleBusinessAdapterOptions) {
    const hosts = apiHosts(options.app.apiBaseUrl);
    const api = (baseUrl: string) => new BusinessApi({ ...apiOptions(options), baseUrl });
    super(
      { rules: googleBusinessRules, duplicates: 'look-up', quotas: googleBusinessQuotas(options.workspaceShare) },
      linkOf(businessProfile(api(hosts.accounts), api(hosts.locations)), options),
    );
    this.#posts = api(hosts.posts);
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const parent = request.account.remoteId;
    if (!parent) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The Google Business Profile account names no location: reconnect it.', false);
    const post = localPostOf(request);
    const call = { accessToken: tokensOf(request.account).accessToken, signal: request.signal };
    const steps = new Steps(request.checkpoint);
    const resumed = steps.result<Created>('create') !== undefined;
    const since = await steps.once('since', async () => Date.now());
    let created = await steps.once(
      'create',
      async (): Promise<Created> => {
        const { body } = await this.#posts.send<LocalPost>({ ...call, method: 'POST', path: `/v4/${parent}/localPosts`, body: { json: post } });
        if (!body.name) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Google Business Profile took the post without naming it.', false);
        return { name: body.name, state: body.state ?? 'PROCESSING', searchUrl: body.searchUrl ?? null };
      },
      { ifInterrupted: () => this.#earlierPost(call, parent, post, since) },
    );
    if (resumed && created.state === 'PROCESSING') {
      const { body } = await this.#posts.send<LocalPost>({ ...call, method: 'GET', path: `/v4/${created.name}` });
      created = await steps.record('create', { name: created.name, state: body.state ?? created.state, searchUrl: body.searchUrl ?? created.searchUrl });
    }
    if (created.state === 'REJECTED')
      throw new ProviderError('PROVIDER_REJECTED', 'Google Business Profile rejected the post after reviewing it (state REJECTED).', false);
    if (created.state === 'PROCESSING') return { status: 'processing', handle: created.name, checkAfterMs: reviewCheckAfterMs };
    // A live post has its searchUrl ("the link to the local post in Google search"); the manager's page where Google gave none.
    return { status: 'published', item: { remoteId: created.name, remoteUrl: created.searchUrl ?? 'https://business.google.com/' } };
  }

  /** Google's v4 post insights are retired (https://developers.google.com/my-business/content/insight-data): none. */
  async metrics(): Promise<ItemMetrics> {
    return {};
  }

  /** The post an interrupted create made: the location's newest, of the same topic and summary, made since the first attempt. */
  async #earlierPost(
    call: { accessToken: string; signal: AbortSignal },
    parent: string,
    post: Record<string, unknown>,
    since: number,
  ): Promise<Created | null> {
    const { body } = await this.#posts.send<{ localPosts?: LocalPost[] }>({ ...call, method: 'GET', path: `/v4/${parent}/localPosts?pageSize=100` });
    const found = (body.localPosts ?? []).find(
      (candidate) =>
        candidate.topicType === post.topicType &&
        (candidate.summary ?? '') === (post.summary ?? '') &&
        Date.parse(candidate.createTime ?? '') >= since - clockSkewMs,
    );
    return found?.name ? { name: found.name, state: found.state ?? 'PROCESSING', searchUrl: found.searchUrl ?? null } : null;
  }
}

export function createGoogleBusinessAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): GoogleBusinessAdapter {
  return new GoogleBusinessAdapter({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts, workspaceShare: config.appQuotaWorkspaceShare });
}
