// A stand-in for TikTok, as TikTok's references document the calls the adapter makes. TikTok publishes no maintained
// official Node SDK for Login Kit or the Content Posting API, so the references alone keep this honest:
//   Login Kit for Web  https://developers.tiktok.com/doc/login-kit-web, and access token management
//     https://developers.tiktok.com/doc/oauth-user-access-token-management (the shared OAuth stand-in,
//     test/support/oauthNetwork.ts, with TikTok's paths, `client_key` for the app's id, the secret in the form,
//     comma-separated scopes, `open_id` in the token answer, refresh tokens rotating)
//   Get user info  https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info (`fields` required; `username`
//     needs user.info.profile: scope_permission_missed)
//   Query creator info  https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
//     (`max_video_post_duration_sec` differs per creator: 60, 180 or 600 s; `maxVideoSeconds` here)
//   Direct Post  https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (6 inits a minute per
//     token; `post_info.privacy_level` is required and must be one the creator offers: privacy_level_option_mismatch)
//   Media transfer  https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (the chunk rules;
//     PUT with Content-Range in order, 206 per chunk, 201 after the last; PULL_FROM_URL only from verified prefixes:
//     url_ownership_unverified)
//   Photo post  https://developers.tiktok.com/doc/content-posting-api-reference-photo-post (1-35 JPEG or WebP URLs,
//     title <= 90, description <= 4,000)
//   Get post status  https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
//     (`publicaly_available_post_id` written as bare int64 numbers beyond 2^53, as TikTok does; a video longer than
//     the creator's maximum is taken, uploaded, and then FAILED with fail_reason `duration_check_failed`, the
//     reference's reason for it: its length is read from the MP4's `mvhd` box as the chunks arrive)
//   Errors  https://developers.tiktok.com/doc/tiktok-api-v2-error-handling: `{data, error: {code, message, log_id}}`.
// Uploaded and fetched bytes are counted and hashed, never kept.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export interface Creator {
  username: string;
  privacyLevels: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  /** creator_info's max_video_post_duration_sec. */
  maxVideoSeconds: number;
}

export interface Publish {
  id: string;
  openId: string;
  kind: 'video' | 'photo';
  postInfo: Record<string, unknown>;
  sourceInfo: Record<string, unknown>;
  /** FILE_UPLOAD: the chunks' Content-Ranges as received, the bytes held and every byte received. */
  contentRanges: string[];
  received: number;
  bytesReceived: number;
  hash: Hash;
  sha256: string | null;
  /** PULL_FROM_URL: what TikTok fetched, each URL's content type and hash. */
  fetched: { contentType: string; sha256: string; bytes: number }[];
  statusPolls: number;
  postId: string | null;
  /** The uploaded video's length, from its MP4 header (FILE_UPLOAD). */
  durationSeconds: number | null;
}

const mb = 1024 * 1024;
const allScopes = ['user.info.basic', 'video.publish', 'video.upload'];

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class TikTokStandIn {
  readonly oauth: OAuthNetwork;
  /** Each creator's posting options, by open_id. */
  readonly creators = new Map<string, Creator>();
  readonly publishes = new Map<string, Publish>();
  readonly requests: { method: string; path: string; at: number; token: string }[] = [];
  /** When each init arrived, by access token's creator. */
  readonly inits: { openId: string; at: number }[] = [];
  /** Inits refused for the limit a minute, by creator. */
  readonly refusedInits: string[] = [];
  /** Inits a minute per token: TikTok's documented 6, or more for an app TikTok granted more (TIKTOK_INITS_PER_MINUTE). */
  initsPerMinute = 6;
  /** status/fetch answers PROCESSING this many times once the media is in. */
  processingPolls = 1;
  /** The next this many API calls answer 429 rate_limit_exceeded. */
  throttleNext = 0;
  /** The next status/fetch of a complete publish answers FAILED with this reason. */
  failNext: string | null = null;
  /** How long each chunk's answer waits after its bytes arrived (to stop a worker mid-upload). */
  chunkDelayMs = 0;
  /** URL prefixes verified for PULL_FROM_URL. */
  verifiedPrefixes: string[] = [];
  /** Where the service's signed URLs are really served (its public base URL is not this machine). */
  mediaOrigin: { from: string; to: string } | null = null;
  #nextPostId = 7_300_000_000_000_000_000n;

  private constructor(redirectUris: string[]) {
    this.oauth = new OAuthNetwork(redirectUris, {
      paths: { authorize: '/v2/auth/authorize/', token: '/v2/oauth/token/', revoke: '/v2/oauth/revoke/' },
      clientAuthentication: 'post',
      clientIdParameter: 'client_key',
      scopeSeparator: ',',
      refreshTokens: 'rotated',
      tokenFields: (user) => ({ open_id: user.id }),
    });
    this.oauth.api = (req, res, url) => this.#api(req, res, url);
  }

  static async start(redirectUris: string[]): Promise<TikTokStandIn> {
    const standIn = new TikTokStandIn(redirectUris);
    await standIn.oauth.start();
    return standIn;
  }

  get url(): string {
    return this.oauth.url;
  }

  stop(): Promise<void> {
    return this.oauth.stop();
  }

  /** The TikTok user who authorizes next (its id is the open_id), and what they allow when posting. */
  signInAs(user: NetworkUser, creator: Partial<Creator> = {}): void {
    this.oauth.user = user;
    this.creators.set(user.id, {
      username: user.username,
      privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoSeconds: 600,
      ...creator,
    });
  }

  /** An access token for the user signed in, by the authorization code flow as an app would run it. */
  async accessToken(redirectUri: string): Promise<string> {
    const authorize = new URL(`${this.url}/v2/auth/authorize/`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_key: this.oauth.clientId,
      redirect_uri: redirectUri,
      scope: allScopes.join(','),
      state: 's',
    }).toString();
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const answer = await fetch(`${this.url}/v2/oauth/token/`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_key: this.oauth.clientId,
        client_secret: this.oauth.clientSecret,
      }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  #send(res: ServerResponse, status: number, data: unknown, code = 'ok', message = ''): void {
    const body = JSON.stringify({ data, error: { code, message, log_id: randomBytes(8).toString('hex').toUpperCase() } });
    // Post ids go out as bare int64 numbers, as TikTok writes them.
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body.replace(/"int64:(\d+)"/g, '$1'));
  }

  #error(res: ServerResponse, status: number, code: string, message: string): void {
    this.#send(res, status, {}, code, message);
  }

  async #api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, at: Date.now(), token });
    const upload = /^\/upload\/([\w-]+)$/.exec(url.pathname);
    // The upload URL is the credential of its upload.
    if (req.method === 'PUT' && upload) return this.#chunk(req, res, upload[1]!).then(() => true);
    const route = `${req.method} ${url.pathname}`;
    const routes: Record<string, (openId: string, body: Record<string, any>) => Promise<void> | void> = {
      'GET /v2/user/info/': (openId) => this.#userInfo(res, url, token, openId),
      'POST /v2/post/publish/creator_info/query/': (openId) => this.#creatorInfo(res, openId),
      'POST /v2/post/publish/video/init/': (openId, body) => this.#videoInit(res, openId, body),
      'POST /v2/post/publish/content/init/': (openId, body) => this.#photoInit(res, openId, body),
      'POST /v2/post/publish/status/fetch/': (openId, body) => this.#status(res, openId, body),
    };
    const handler = routes[route];
    if (!handler) return false;
    const text = (await bodyOf(req)).toString('utf8');
    const user = this.oauth.userOf(token);
    const answer = user
      ? this.#refusal(route, token, req, text)
      : ([401, 'access_token_invalid', 'The access token is invalid or not found in the request.'] as const);
    if (Array.isArray(answer)) {
      const [status, code, message] = answer;
      this.#error(res, status, code, message);
      return true;
    }
    await handler(user!.id, (answer as { body: Record<string, any> }).body);
    return true;
  }

  /** The request's refusal (status, TikTok's code, message), or its JSON body. */
  #refusal(route: string, token: string, req: IncomingMessage, text: string): [number, string, string] | { body: Record<string, any> } {
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return [429, 'rate_limit_exceeded', 'API rate limit was exceeded, please try again later.'];
    }
    if (!route.startsWith('POST')) return { body: {} };
    if (!this.oauth.scopeOf(token).includes('video.publish'))
      return [401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.'];
    if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return [400, 'invalid_params', 'Content-Type must be application/json.'];
    try {
      return { body: JSON.parse(text) };
    } catch {
      return [400, 'invalid_params', 'The request body is not JSON.'];
    }
  }

  #userInfo(res: ServerResponse, url: URL, token: string, openId: string): void {
    const fields = (url.searchParams.get('fields') ?? '').split(',').filter(Boolean);
    if (!fields.length) return this.#error(res, 400, 'invalid_params', 'fields is required.');
    if (
      fields.some((field) => ['username', 'bio_description', 'profile_deep_link', 'is_verified'].includes(field)) &&
      !this.oauth.scopeOf(token).includes('user.info.profile')
    )
      return this.#error(res, 401, 'scope_permission_missed', 'The user did not authorize user.info.profile.');
    const user = this.oauth.userOf(token)!;
    const all: Record<string, unknown> = { open_id: openId, union_id: `u-${openId}`, avatar_url: user.profileImageUrl, display_name: user.name };
    this.#send(res, 200, { user: Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]])) });
  }

  #creatorInfo(res: ServerResponse, openId: string): void {
    const creator = this.creators.get(openId)!;
    this.#send(res, 200, {
      creator_avatar_url: 'https://p16.tiktokcdn.example/avatar.jpeg',
      creator_username: creator.username,
      creator_nickname: creator.username,
      privacy_level_options: creator.privacyLevels,
      comment_disabled: creator.commentDisabled,
      duet_disabled: creator.duetDisabled,
      stitch_disabled: creator.stitchDisabled,
      max_video_post_duration_sec: creator.maxVideoSeconds,
    });
  }

  /** `initsPerMinute` inits a minute per token, over a sliding minute; the privacy level among the creator's options. */
  #initRefused(res: ServerResponse, openId: string, postInfo: Record<string, unknown> | undefined): boolean {
    const now = Date.now();
    if (this.inits.filter((init) => init.openId === openId && now - init.at < 60_000).length >= this.initsPerMinute) {
      this.refusedInits.push(openId);
      this.#error(res, 429, 'rate_limit_exceeded', 'API rate limit was exceeded, please try again later.');
      return true;
    }
    const creator = this.creators.get(openId)!;
    if (typeof postInfo?.privacy_level !== 'string') {
      this.#error(res, 400, 'invalid_params', 'post_info.privacy_level is required.');
      return true;
    }
    if (!creator.privacyLevels.includes(postInfo.privacy_level)) {
      this.#error(res, 400, 'privacy_level_option_mismatch', 'privacy_level is not among the privacy_level_options of the creator.');
      return true;
    }
    this.inits.push({ openId, at: now });
    return false;
  }

  #newPublish(openId: string, kind: Publish['kind'], body: Record<string, any>): Publish {
    const publish: Publish = {
      id: `v_pub_file~v2-1.${randomBytes(8).toString('hex')}`,
      openId,
      kind,
      postInfo: body.post_info ?? {},
      sourceInfo: body.source_info ?? {},
      contentRanges: [],
      received: 0,
      bytesReceived: 0,
      hash: createHash('sha256'),
      sha256: null,
      fetched: [],
      statusPolls: 0,
      postId: null,
      durationSeconds: null,
    };
    this.publishes.set(publish.id, publish);
    return publish;
  }

  async #videoInit(res: ServerResponse, openId: string, body: Record<string, any>): Promise<void> {
    const source = body.source_info ?? {};
    const title = body.post_info?.title;
    if (typeof title === 'string' && [...title].length > 2200) return this.#error(res, 400, 'invalid_params', 'title is too long.');
    if (source.source === 'FILE_UPLOAD') {
      const refusal = chunkRefusal(source.video_size, source.chunk_size, source.total_chunk_count);
      if (refusal) return this.#error(res, 400, 'invalid_params', refusal);
    } else if (source.source === 'PULL_FROM_URL') {
      if (!this.#verified(source.video_url)) return this.#error(res, 403, 'url_ownership_unverified', 'The domain or URL prefix of video_url is not verified.');
    } else return this.#error(res, 400, 'invalid_params', 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
    if (this.#initRefused(res, openId, body.post_info)) return;
    const publish = this.#newPublish(openId, 'video', body);
    if (source.source === 'PULL_FROM_URL') {
      const fetched = await this.#fetch(source.video_url);
      if (typeof fetched === 'string') return this.#error(res, 400, 'invalid_params', fetched);
      publish.fetched.push(fetched);
      publish.sha256 = fetched.sha256;
      return this.#send(res, 200, { publish_id: publish.id });
    }
    this.#send(res, 200, { publish_id: publish.id, upload_url: `${this.url}/upload/${publish.id.replace(/[^\w-]/g, '-')}` });
  }

  async #photoInit(res: ServerResponse, openId: string, body: Record<string, any>): Promise<void> {
    const images: unknown = body.source_info?.photo_images;
    const info = body.post_info ?? {};
    if (body.media_type !== 'PHOTO' || !['DIRECT_POST', 'MEDIA_UPLOAD'].includes(body.post_mode))
      return this.#error(res, 400, 'invalid_params', 'media_type or post_mode is invalid.');
    if (body.source_info?.source !== 'PULL_FROM_URL') return this.#error(res, 400, 'invalid_params', 'Photos are only pulled from URLs.');
    if (!Array.isArray(images) || images.length < 1 || images.length > 35)
      return this.#error(res, 400, 'invalid_params', 'photo_images must hold 1 to 35 URLs.');
    if ((info.title && [...String(info.title)].length > 90) || (info.description && [...String(info.description)].length > 4000))
      return this.#error(res, 400, 'invalid_params', 'title or description is too long.');
    if (!images.every((image) => this.#verified(image))) return this.#error(res, 403, 'url_ownership_unverified', 'A photo URL is not of a verified prefix.');
    if (this.#initRefused(res, openId, info)) return;
    const publish = this.#newPublish(openId, 'photo', body);
    for (const image of images) {
      const fetched = await this.#fetch(image as string);
      if (typeof fetched === 'string') return this.#error(res, 400, 'invalid_params', fetched);
      if (!['image/jpeg', 'image/webp'].includes(fetched.contentType))
        return this.#error(res, 400, 'invalid_params', `A photo must be JPEG or WebP, not ${fetched.contentType || 'unknown'}.`);
      publish.fetched.push(fetched);
    }
    this.#send(res, 200, { publish_id: publish.id });
  }

  /** A chunk in order (or the last one again, its answer lost), of the planned size, answered 206 or 201 after the last. */
  async #chunk(req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<void> {
    const publish = [...this.publishes.values()].find((candidate) => candidate.id.replace(/[^\w-]/g, '-') === uploadId);
    if (!publish) return void res.writeHead(404).end();
    const { video_size: total, chunk_size: chunkSize, total_chunk_count: count } = publish.sourceInfo as Record<string, number>;
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const bytes = await bodyOf(req);
    if (!range || Number(range[3]) !== total) return void res.writeHead(400).end('Content-Range must be bytes FIRST-LAST/TOTAL');
    if (!/^video\//.test(req.headers['content-type'] ?? '')) return void res.writeHead(400).end('Content-Type must be the video type');
    const [first, last] = [Number(range[1]), Number(range[2])];
    const index = first / chunkSize!;
    const expectedLast = index === count! - 1 ? total! - 1 : first + chunkSize! - 1;
    const again = first + bytes.length === publish.received && bytes.length > 0;
    if ((first !== publish.received && !again) || !Number.isInteger(index) || last !== expectedLast || bytes.length !== last - first + 1)
      return void res.writeHead(416).end(`expected bytes ${publish.received}-…/${total}`);
    publish.durationSeconds ??= mp4DurationSeconds(bytes);
    publish.contentRanges.push(`bytes ${first}-${last}/${total}`);
    publish.bytesReceived += bytes.length;
    if (!again) {
      publish.hash.update(bytes);
      publish.received = last + 1;
    }
    if (this.chunkDelayMs) await sleep(this.chunkDelayMs);
    if (publish.received === total) publish.sha256 ??= publish.hash.digest('hex');
    res.writeHead(publish.received === total ? 201 : 206).end();
  }

  #status(res: ServerResponse, openId: string, body: Record<string, any>): void {
    const publish = this.publishes.get(String(body.publish_id));
    if (!publish || publish.openId !== openId) return this.#error(res, 400, 'invalid_params', 'publish_id is invalid.');
    const base = { uploaded_bytes: publish.received, downloaded_bytes: publish.fetched.reduce((sum, item) => sum + item.bytes, 0) };
    if (!publish.sha256 && publish.kind === 'video') return this.#send(res, 200, { status: 'PROCESSING_UPLOAD', ...base });
    if (this.failNext && !publish.postId) {
      const reason = this.failNext;
      this.failNext = null;
      return this.#send(res, 200, { status: 'FAILED', fail_reason: reason, ...base });
    }
    if ((publish.durationSeconds ?? 0) > this.creators.get(openId)!.maxVideoSeconds)
      return this.#send(res, 200, { status: 'FAILED', fail_reason: 'duration_check_failed', ...base });
    if (publish.statusPolls++ < this.processingPolls) return this.#send(res, 200, { status: 'PROCESSING_DOWNLOAD', ...base });
    publish.postId ??= String(this.#nextPostId++);
    this.#send(res, 200, { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [`int64:${publish.postId}`], ...base });
  }

  #verified(url: unknown): boolean {
    return typeof url === 'string' && this.verifiedPrefixes.some((prefix) => url.startsWith(prefix));
  }

  async #fetch(url: string): Promise<{ contentType: string; sha256: string; bytes: number } | string> {
    const reached = this.mediaOrigin && url.startsWith(this.mediaOrigin.from) ? this.mediaOrigin.to + url.slice(this.mediaOrigin.from.length) : url;
    const answer = await fetch(reached).catch(() => null);
    if (!answer?.ok) return `The media could not be downloaded from ${url} (${answer?.status ?? 'no answer'}).`;
    const bytes = Buffer.from(await answer.arrayBuffer());
    const contentType = bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))
      ? 'image/jpeg'
      : bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP'
        ? 'image/webp'
        : (answer.headers.get('content-type') ?? '');
    return { contentType, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  }
}

/** An MP4's length from its movie header (`mvhd`, ISO/IEC 14496-12: version, flags, times, timescale, duration), if the bytes hold it. */
function mp4DurationSeconds(bytes: Buffer): number | null {
  const at = bytes.indexOf('mvhd', 0, 'latin1');
  if (at < 0 || at + 32 > bytes.length) return null;
  const version = bytes[at + 4];
  const timescale = version === 1 ? bytes.readUInt32BE(at + 24) : bytes.readUInt32BE(at + 16);
  const duration = version === 1 ? Number(bytes.readBigUInt64BE(at + 28)) : bytes.readUInt32BE(at + 20);
  return timescale ? duration / timescale : null;
}

/** The Media Transfer Guide's chunk rules; the reason they are broken, if they are. */
export function chunkRefusal(videoSize: unknown, chunkSize: unknown, count: unknown): string | null {
  if (![videoSize, chunkSize, count].every((value) => Number.isInteger(value) && (value as number) > 0))
    return 'video_size, chunk_size and total_chunk_count are required.';
  const [size, chunk, total] = [videoSize, chunkSize, count] as [number, number, number];
  if (total !== Math.floor(size / chunk)) return 'total_chunk_count must be video_size / chunk_size rounded down.';
  if (total < 1 || total > 1000) return 'There must be 1 to 1000 chunks.';
  if (size < 5 * 1000 * 1000 && chunk !== size) return 'A video under 5 MB is uploaded whole: chunk_size must be video_size.';
  if (size >= 5 * 1000 * 1000 && (chunk < 5 * 1000 * 1000 || chunk > 64 * mb)) return 'chunk_size must be 5 to 64 MB.';
  if (size - (total - 1) * chunk > 128 * mb) return 'The last chunk may hold at most 128 MB.';
  return null;
}
