// Reddit: text, link, image and video posts to a subreddit, by the person who authorized (the operator's "web app" at
// https://www.reddit.com/prefs/apps).
//   OAuth  https://github.com/reddit-archive/reddit/wiki/OAuth2: <www.reddit.com>/api/v1/authorize with
//     `duration=permanent` (else no refresh token) and space-separated scopes, no PKCE; POST /api/v1/access_token
//     with HTTP Basic (client id and secret), refreshed there with grant_type=refresh_token; revoked at
//     /api/v1/revoke_token. Scopes (https://www.reddit.com/api/v1/scopes): identity (/api/v1/me), submit
//     (/api/submit), read (a subreddit's listing, the look-up below), flair (a subreddit's link flair).
//   User-Agent  https://github.com/reddit-archive/reddit/wiki/API "Rules": every call names the app as
//     `<platform>:<app ID>:<version string> (by /u/<reddit username>)`; default agents are "drastically limited".
//     Here: `web:<REDDIT_CLIENT_ID>:<version> (by /u/<the account>)`, the account unknown only while connecting.
//   Rate limits  the same page: 100 queries a minute per OAuth client id, averaged over 10 minutes, told in
//     X-Ratelimit-Used, -Remaining and -Reset (seconds to the window's end): a 429 waits -Reset (http.ts
//     `retryAfterMs`), and every publish is charged to the app's quota (kit/quotas.ts).
//   Submit  https://www.reddit.com/dev/api#POST_api_submit (form: api_type=json, sr, kind self|link, title, text
//     or url, flair_id, nsfw, spoiler, resubmit): Reddit refuses inside a 200, as `{json: {errors: [[CODE,
//     message, field]]}}` (SUBREDDIT_NOEXIST, NO_LINKS, SUBMIT_VALIDATION_FLAIR_REQUIRED, RATELIMIT "you are doing
//     that too much. try again in 9 minutes."; also read so by gitroomhq/postiz-app's reddit provider); a created
//     post answers `{json: {errors: [], data: {id, name, url}}}`.
//   Flairs  GET /r/<sr>/api/link_flair_v2 (https://www.reddit.com/dev/api#GET_api_link_flair_v2, scope flair): the
//     subreddit's link flair templates, as `flairId`'s choices for the subreddit given (those marked mod_only
//     left out: only moderators may set them); a 403 there means people may not pick flair in that subreddit, as
//     postiz-app's reddit provider reads it.
//   Media  as PRAW's `Subreddit._upload_media` and postiz-app's reddit provider do it: POST /api/media/asset.json
//     (form filepath, mimetype; scope submit) answers `{args: {action, fields: [{name, value}]}, asset: {asset_id,
//     websocket_url}}`, `action` a scheme-relative URL (`//reddit-uploaded-media.s3-accelerate.amazonaws.com`, read
//     against the API's own scheme); the file goes there as S3's form upload (every field, then `file` last), which
//     answers 201 with XML whose <Location> is the media's URL. The submit then names it (kind=image: `url`;
//     kind=video: `url` and `video_poster_url`, the poster uploaded alike) and Reddit answers without the post
//     (`{json: {errors: [], data: {user_submitted_page, websocket_url}}}`): it makes the post once it has processed
//     the file, and the target waits (`processing`) until the post shows in the subreddit's newest (`checkStatus`).
//     Each call that changes something is a step: a lease and an upload are sent again if cut off (a lease unused
//     and an upload to the same key replace nothing that is posted); the submit never is.
//   A subreddit's own rules, where the API says them, are read before a first attempt sends anything, so a post the
//     subreddit would refuse fails with its rule rather than after an upload: GET /r/<sr>/about
//     (https://www.reddit.com/dev/api#GET_r_{subreddit}_about: `submission_type` any|self|link, `allow_images`,
//     `allow_videos`) and GET /api/v1/<sr>/post_requirements
//     (https://www.reddit.com/dev/api#GET_api_v1_{subreddit}_post_requirements: `title_text_min_length`,
//     `title_text_max_length`, `is_flair_required`, `body_restriction_policy` required|notAllowed|none; the fields
//     as PRAW's `Subreddit.post_requirements` and gitroomhq/postiz-app's reddit provider read them). A subreddit
//     whose rules cannot be read (private, missing) is left to the submit's own answer.
//   No duplicates  Reddit takes no idempotency key. A submit an earlier attempt started and did not see answered is
//     looked up among the subreddit's newest posts (GET /r/<sr>/new, scope read: the same author and title, and
//     the same link or kind) before submitting again, as postiz-app's reddit provider looks its submissions up. A media
//     post shows there only once Reddit has processed it, so an interrupted media submit not found is taken as made
//     and waited for like one answered (the target fails after the kit's processing limit if it never shows), never
//     submitted again.
import {
  ProviderError,
  type ConnectedAccount,
  type ItemMetrics,
  type ProviderAdapter,
  type PublishOutcome,
  type PublishMedia,
  type PublishRequest,
  type ProviderTokens,
  type GivenSettings,
  type SettingOptions,
} from '../adapter.ts';
import { networkFetch, type NetworkResponse } from '../http.ts';
import { apiOptions, OAuthAdapter, type OAuthAdapterOptions } from '../kit/oauthAdapter.ts';
import { NetworkApi, type NetworkApiOptions, type NetworkCall } from '../kit/networkApi.ts';
import { oauthLink, tokensOf, type OAuthProfile } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { mediaOfSetting } from '../kit/settingsMedia.ts';
import { multipartFileBody } from '../kit/upload.ts';
import type { GivenApp, OAuthAdapterDependencies } from '../network.ts';
import { redditRules } from './network.ts';

export const redditScopes = ['identity', 'submit', 'read', 'flair'];

/** The version in the User-Agent Reddit asks for: this adapter's, changed when its calls change. */
const agentVersion = '1.0.0';

/**
 * Reddit's 100 queries a minute per OAuth client, over its 10-minute window; a publish makes at most four API calls
 * (a video's and its poster's leases, a look-up, the submit: the uploads go to S3, not counted).
 */
export const redditQuotas: readonly Quota[] = [
  { name: 'Reddit: 1,000 requests in 10 minutes per OAuth client', scope: 'app', windowSeconds: 600, limit: 1000, costPerPublish: 6 },
];

interface RedditSettings {
  subreddit: string;
  title: string;
  url?: string;
  flairId?: string;
  posterMediaId?: string;
  nsfw?: boolean;
  spoiler?: boolean;
}

/** Reddit's answer to an `api_type=json` form call. */
interface JsonAnswer {
  json?: { errors?: [string, string, string?][]; data?: { id?: string; name?: string; url?: string } };
}

/** POST /api/media/asset.json's answer: where and how the file goes (S3's form upload). */
interface MediaLease {
  args?: { action?: string; fields?: { name: string; value: string }[] };
}

/** A post as a listing shows it (a t3 thing's data). */
interface ListedPost {
  id?: string;
  author?: string;
  title?: string;
  url?: string;
  permalink?: string;
  is_self?: boolean;
  is_video?: boolean;
  post_hint?: string;
}

interface Listing {
  data?: { children?: { data?: ListedPost }[] };
}

type Kind = 'self' | 'link' | 'image' | 'video';

/** What a post is looked up by among the subreddit's newest. */
interface Sought {
  sr: string;
  title: string;
  kind: Kind;
  url?: string;
}

interface Submitted {
  id: string;
  url: string;
}

/** The submit step's result: the post, or (a media post) that Reddit took it and makes it later. */
type SubmitResult = Submitted | { pending: true };

/** The file names Reddit's lease is asked for end as PRAW's `_upload_media` knows them (it reads the type from the name). */
const extensions: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/quicktime': 'mov' };

/** How long after a media submit the subreddit is looked at again for the post Reddit makes of it. */
const mediaCheckAfterMs = 5000;

/** The media URL in S3's answer to a form upload (`<PostResponse><Location>…</Location>`), its XML entities read. */
export function locationOf(xml: unknown): string | undefined {
  const found = typeof xml === 'string' ? /<Location>([^<]+)<\/Location>/.exec(xml)?.[1] : undefined;
  return found?.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!);
}

const userAgent = (clientId: string, username?: string) => `web:${clientId}:${agentVersion}${username ? ` (by /u/${username})` : ''}`;

function reasonOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? `Reddit: ${body.slice(0, 300)}` : undefined;
  const { message, error } = body as { message?: unknown; error?: unknown };
  if (typeof message === 'string' && message) return `Reddit: ${message}`;
  return typeof error === 'string' && error ? `Reddit: ${error}` : undefined;
}

/** "try again in 9 minutes." / "in 35 seconds." / "in 1 minute." (RATELIMIT's message) as milliseconds. */
export function waitOfRateLimit(message: string): number | undefined {
  const found = /try again in (\d+) (second|minute|hour)s?/i.exec(message);
  if (!found) return undefined;
  const unit = { second: 1000, minute: 60_000, hour: 3_600_000 }[found[2]!.toLowerCase() as 'second' | 'minute' | 'hour'];
  return Number(found[1]) * unit;
}

/** Reddit's refusal inside a 200 as the ProviderError it means: RATELIMIT waits, every other is the subreddit's or Reddit's no. */
export function refusalOf(errors: readonly [string, string, string?][]): ProviderError {
  const [code, message, field] = errors[0]!;
  const reason = `Reddit refused the post: ${message} (${code}${field ? `, ${field}` : ''}).`;
  if (code === 'RATELIMIT') return new ProviderError('RATE_LIMITED_BY_PROVIDER', reason, true, { retryAfterMs: waitOfRateLimit(message) });
  return new ProviderError('PROVIDER_REJECTED', reason, false);
}

class RedditApi extends NetworkApi {
  readonly #clientId: string;

  constructor(options: NetworkApiOptions, clientId: string) {
    super(options, { network: 'Reddit', reasonOf });
    this.#clientId = clientId;
  }

  /** The API's base URL, against which Reddit's scheme-relative upload URLs are read. */
  get apiUrl(): string {
    return this.baseUrl;
  }

  /** A call with Reddit's User-Agent, naming `username` where the account is known. */
  call<T>(call: NetworkCall, username?: string): Promise<NetworkResponse<T>> {
    return this.send<T>({ ...call, headers: { ...call.headers, 'user-agent': userAgent(this.#clientId, username) } });
  }
}

/** The `fetch` of Reddit's OAuth endpoints: the same guard, with the User-Agent Reddit asks every caller for. */
function withUserAgent(fetchImpl: typeof fetch, agent: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('user-agent', agent);
    return fetchImpl(input, { ...init, headers });
  };
}

function redditProfile(api: RedditApi, app: GivenApp): OAuthProfile {
  return {
    network: 'Reddit',
    server: () => ({
      authorizationEndpoint: `${app.authBaseUrl}/api/v1/authorize`,
      tokenEndpoint: `${app.authBaseUrl}/api/v1/access_token`,
      revocationEndpoint: `${app.authBaseUrl}/api/v1/revoke_token`,
      scopes: redditScopes,
      pkce: false,
      clientAuthentication: 'basic',
      authorizationParams: { duration: 'permanent' },
    }),
    identities: async (tokens: ProviderTokens) => {
      // https://www.reddit.com/dev/api#GET_api_v1_me: the account's name, id and icon.
      const { body } = await api.call<{ id?: string; name?: string; icon_img?: string }>({
        method: 'GET',
        path: '/api/v1/me',
        accessToken: tokens.accessToken,
      });
      if (!body.id || !body.name) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Reddit answered GET /api/v1/me without the account.', true);
      const identity = {
        remoteId: body.id,
        username: body.name,
        displayName: `u/${body.name}`,
        avatarUrl: body.icon_img ? body.icon_img.replaceAll('&amp;', '&') : null,
      };
      return [{ identity, tokens }];
    },
    requiredScopes: { scopes: redditScopes, advice: 'connect again and allow every permission asked for' },
    refresh: 'standard',
  };
}

export class RedditAdapter extends OAuthAdapter implements ProviderAdapter {
  readonly #api: RedditApi;

  constructor(options: OAuthAdapterOptions) {
    const api = new RedditApi(apiOptions(options), options.app.clientId);
    const fetchWithAgent = withUserAgent(networkFetch(), userAgent(options.app.clientId));
    super(
      { rules: redditRules, duplicates: 'look-up', quotas: redditQuotas },
      oauthLink(redditProfile(api, options.app), options.app, { redirectUri: options.redirectUri, timeoutMs: options.timeoutMs, fetch: fetchWithAgent }),
    );
    this.#api = api;
  }

  async publish(request: PublishRequest): Promise<PublishOutcome> {
    const settings = request.settings as unknown as RedditSettings;
    const sought = soughtOf(request);
    if (sought.kind === 'link' && !sought.url) throw new ProviderError('PROVIDER_REJECTED', 'A Reddit link post needs the link (setting url).', false);
    const poster = sought.kind === 'video' ? mediaOfSetting(request, 'posterMediaId', 'image') : undefined;
    if (sought.kind === 'video' && !poster)
      throw new ProviderError('PROVIDER_REJECTED', 'A Reddit video post needs its poster (setting posterMediaId).', false);
    const account = request.account;
    const call = { accessToken: tokensOf(account).accessToken, signal: request.signal };
    const steps = new Steps(request.checkpoint);
    if (!request.checkpoint.saved) await this.#checkSubredditRules(call, account, sought, request.caption, settings);
    const media = sought.kind === 'image' || sought.kind === 'video' ? await this.#upload(steps, 'media', request.media[0]!, call, account) : undefined;
    const posterUrl = poster ? await this.#upload(steps, 'poster', poster, call, account) : undefined;
    const form: Record<string, string> = {
      api_type: 'json',
      sr: sought.sr,
      kind: sought.kind,
      title: sought.title,
      text: request.caption,
      ...(sought.kind === 'link' ? { url: sought.url!, resubmit: 'true' } : {}),
      ...(media ? { url: media } : {}),
      ...(posterUrl ? { video_poster_url: posterUrl } : {}),
      ...(settings.flairId ? { flair_id: settings.flairId } : {}),
      nsfw: String(settings.nsfw ?? false),
      spoiler: String(settings.spoiler ?? false),
    };
    const post = await steps.once(
      'submit',
      async (): Promise<SubmitResult> => {
        const { body } = await this.#api.call<JsonAnswer>({ ...call, method: 'POST', path: '/api/submit', body: { form } }, account.username);
        const errors = body.json?.errors ?? [];
        if (errors.length) throw refusalOf(errors);
        if (media) return { pending: true };
        const created = body.json?.data;
        if (!created?.id || !created.url) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Reddit took the post without naming it.', false);
        return { id: created.id, url: created.url };
      },
      {
        ifInterrupted: async () => (await this.#earlierPost(call, account, sought)) ?? (media ? { pending: true } : null),
      },
    );
    if ('pending' in post) return { status: 'processing', handle: 'submitted', checkAfterMs: mediaCheckAfterMs };
    return { status: 'published', item: { remoteId: post.id, remoteUrl: post.url } };
  }

  /** A media post Reddit took: published once it shows among the subreddit's newest, else still processing. */
  async checkStatus(request: PublishRequest, _handle: string): Promise<PublishOutcome> {
    const call = { accessToken: tokensOf(request.account).accessToken, signal: request.signal };
    const post = await this.#earlierPost(call, request.account, soughtOf(request));
    if (!post) return { status: 'processing', handle: 'submitted', checkAfterMs: mediaCheckAfterMs };
    return { status: 'published', item: { remoteId: post.id, remoteUrl: post.url } };
  }

  /** A file uploaded as Reddit leases it (steps `<name>:lease`, `<name>:upload`): its URL for the submit. */
  async #upload(
    steps: Steps,
    name: string,
    file: PublishMedia,
    call: { accessToken: string; signal: AbortSignal },
    account: ConnectedAccount,
  ): Promise<string> {
    const filepath = `${file.id}.${extensions[file.mimeType] ?? 'bin'}`;
    const lease = await steps.once(`${name}:lease`, async () => {
      const form = { filepath, mimetype: file.mimeType };
      const { body } = await this.#api.call<MediaLease>({ ...call, method: 'POST', path: '/api/media/asset.json', body: { form } }, account.username);
      if (!body.args?.action || !body.args.fields) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Reddit leased no upload for the file.', true);
      return { action: body.args.action, fields: body.args.fields };
    });
    return steps.once(`${name}:upload`, async () => {
      const fields = Object.fromEntries(lease.fields.map((field) => [field.name, field.value]));
      const action = new URL(lease.action, this.#api.apiUrl).href;
      const { body } = await this.#api.sendToGiven<string>(action, 'media upload URL', {
        method: 'POST',
        body: multipartFileBody(fields, { field: 'file', filename: filepath, media: file }),
        signal: call.signal,
      });
      const location = locationOf(body);
      if (!location) throw new ProviderError('PROVIDER_UNAVAILABLE', 'Reddit’s media storage took the file without saying where it is.', false);
      return location;
    });
  }

  /** `flairId`'s choices: the link flairs a person may pick in the subreddit given as `subreddit`. */
  async settingOptions(account: ConnectedAccount, signal: AbortSignal, given: GivenSettings): Promise<SettingOptions> {
    const dependsOn = ['subreddit'];
    const sr = given.subreddit?.replace(/^r\//, '');
    if (!sr) return { flairId: { dependsOn } };
    try {
      const { body } = await this.#api.call<{ id?: string; text?: string; mod_only?: boolean }[]>(
        { method: 'GET', path: `/r/${encodeURIComponent(sr)}/api/link_flair_v2?raw_json=1`, accessToken: tokensOf(account).accessToken, signal },
        account.username,
      );
      const choices = (Array.isArray(body) ? body : []).flatMap((flair) =>
        flair.id && !flair.mod_only ? [{ value: flair.id, label: flair.text || flair.id }] : [],
      );
      return { flairId: choices.length ? { dependsOn, choices } : { dependsOn, unavailable: `r/${sr} offers no post flair to choose.` } };
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'PROVIDER_REJECTED')
        return { flairId: { dependsOn, unavailable: `r/${sr} lets no one but its moderators choose post flair (${error.message}).` } };
      throw error;
    }
  }

  /** Refuses, with the subreddit's rule, a post the subreddit says it would not take (see the top of this file). */
  async #checkSubredditRules(
    call: { accessToken: string; signal: AbortSignal },
    account: ConnectedAccount,
    sought: Sought,
    caption: string,
    settings: RedditSettings,
  ): Promise<void> {
    const readable = async <T>(path: string): Promise<T | undefined> => {
      try {
        return (await this.#api.call<T>({ ...call, method: 'GET', path }, account.username)).body;
      } catch (error) {
        if (error instanceof ProviderError && error.code === 'PROVIDER_REJECTED') return undefined;
        throw error;
      }
    };
    const sr = encodeURIComponent(sought.sr);
    const about = (await readable<{ data?: { submission_type?: string; allow_images?: boolean; allow_videos?: boolean } }>(`/r/${sr}/about?raw_json=1`))?.data;
    const rules = await readable<{
      title_text_min_length?: number | null;
      title_text_max_length?: number | null;
      is_flair_required?: boolean;
      body_restriction_policy?: string;
    }>(`/api/v1/${sr}/post_requirements`);
    const refuse = (rule: string) => {
      throw new ProviderError('PROVIDER_REJECTED', `r/${sought.sr} ${rule}.`, false);
    };
    if (about?.submission_type === 'self' && sought.kind !== 'self') refuse('takes text posts only');
    if (about?.submission_type === 'link' && sought.kind === 'self') refuse('takes no text posts');
    if (sought.kind === 'image' && about?.allow_images === false) refuse('takes no image posts');
    if (sought.kind === 'video' && about?.allow_videos === false) refuse('takes no video posts');
    if (rules?.title_text_max_length && [...sought.title].length > rules.title_text_max_length)
      refuse(`takes titles of at most ${rules.title_text_max_length} characters`);
    if (rules?.title_text_min_length && [...sought.title].length < rules.title_text_min_length)
      refuse(`takes titles of at least ${rules.title_text_min_length} characters`);
    if (rules?.is_flair_required && !settings.flairId) refuse('requires post flair (setting flairId)');
    if (rules?.body_restriction_policy === 'required' && !caption.trim()) refuse('requires a body (the caption)');
    if (rules?.body_restriction_policy === 'notAllowed' && caption.trim()) refuse('takes no body (leave the caption empty)');
  }

  /** The post's upvotes and comments (https://www.reddit.com/dev/api#GET_api_info, scope read; `ups` is fuzzed by Reddit). */
  async metrics(account: ConnectedAccount, remoteId: string): Promise<ItemMetrics> {
    const { body } = await this.#api.call<{ data?: { children?: { data?: { ups?: number; num_comments?: number } }[] } }>(
      { method: 'GET', path: `/api/info?id=t3_${encodeURIComponent(remoteId)}`, accessToken: tokensOf(account).accessToken },
      account.username,
    );
    const post = body.data?.children?.[0]?.data;
    return post ? { likes: post.ups, comments: post.num_comments } : {};
  }

  /** The post a submit made, among the subreddit's newest: by this account, with the same title and kind (and link). */
  async #earlierPost(call: { accessToken: string; signal: AbortSignal }, account: ConnectedAccount, sought: Sought): Promise<Submitted | null> {
    const { body } = await this.#api.call<Listing>(
      { ...call, method: 'GET', path: `/r/${encodeURIComponent(sought.sr)}/new?limit=100&raw_json=1` },
      account.username,
    );
    const found = (body.data?.children ?? [])
      .map((child) => child.data ?? {})
      .find((post) => post.author === account.username && post.title === sought.title && isOfKind(post, sought));
    return found?.id && found.permalink ? { id: found.id, url: `https://www.reddit.com${found.permalink}` } : null;
  }
}

/** A listed post of the kind sought: a self post, the same link, an image (`post_hint` image) or a video (`is_video`). */
function isOfKind(post: ListedPost, sought: Sought): boolean {
  if (sought.kind === 'self') return post.is_self === true;
  if (sought.kind === 'link') return post.url === sought.url;
  if (sought.kind === 'video') return post.is_video === true;
  return post.post_hint === 'image';
}

/** The placement's kind of post and what finds it again. */
function soughtOf(request: PublishRequest): Sought {
  const settings = request.settings as unknown as RedditSettings;
  const kind = ({ text: 'self', link: 'link', image: 'image', video: 'video' } as const)[request.placement as 'text' | 'link' | 'image' | 'video'] ?? 'self';
  return { sr: settings.subreddit.replace(/^r\//, ''), title: settings.title, kind, ...(kind === 'link' && settings.url ? { url: settings.url } : {}) };
}

export function createRedditAdapter({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): RedditAdapter {
  return new RedditAdapter({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts });
}
