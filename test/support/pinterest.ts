// A stand-in for Pinterest's API v5, as its reference documents the calls the adapter makes. Pinterest maintains no
// official Node client (its generated clients are Python and Ruby), so its answers follow the reference
// (https://developers.pinterest.com/docs/api/v5/, the OpenAPI description github.com/pinterest/api-description,
// v5/openapi.yaml as of release 5.23.0: its schemas' constraints the adapter's calls depend on are checked here, as
// the description itself is not part of this repository):
//   OAuth (the shared OAuth stand-in, test/support/oauthNetwork.ts): <url>/oauth/ with comma-separated scopes,
//     POST /v5/oauth/token with HTTP Basic, continuous refresh (a new refresh token at every refresh, the old one
//     dead), refusals as `{code, message}`
//     https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
//   GET /v5/user_account  https://developers.pinterest.com/docs/api/v5/user_account-get
//   GET /v5/boards, GET /v5/boards/{id}/pins  https://developers.pinterest.com/docs/api/v5/boards-list, /boards-list_pins
//     (the boards a page at a time: page_size 1-250, default 25, and an opaque `bookmark` to the next page, null at the end)
//   POST /v5/pins  https://developers.pinterest.com/docs/api/v5/pins-create (PinCreate: board_id ^\d+$, title ≤ 100,
//     description ≤ 800, link ≤ 2048, alt_text ≤ 500, media_source image_url | multiple_image_urls (2-5) |
//     video_id with a cover); image and cover URLs are FETCHED (the service's signed URLs; `mediaOrigin` maps
//     PUBLIC_BASE_URL to where the test service listens) and their type checked
//   POST /v5/media, GET /v5/media/{id}  https://developers.pinterest.com/docs/api/v5/media-create, /media-get, and
//     https://developers.pinterest.com/docs/api-features/creating-boards-and-pins/ (the S3 form upload to
//     upload_url: every upload parameter, then the file; 204), here at <url>/upload/ on this server
//   GET /v5/pins/{id}/analytics  https://developers.pinterest.com/docs/api/v5/pins-analytics
//   Errors  `{code, message}`: 401 code 2 (authentication failed), 429 code 8 with no header saying when to come
//     back; codes the reference does not name are 1 here.
//   Trial access  an app with Trial access is refused every pin in production: 403 code 29 with the message as
//     received in gitroomhq/postiz-app#1084 (Nov 2025; the access tiers page's "visible to their creator only" is
//     now the API Sandbox's behaviour, https://developers.pinterest.com/docs/developer-tools/sandbox/).
// Fetched and uploaded bytes are counted and hashed, never kept.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { streamedForm, type Fetched } from './multipartForm.ts';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export interface Board {
  id: string;
  name: string;
  owner: string;
}

export interface StoredPin {
  id: string;
  board_id: string;
  owner: string;
  title?: string;
  description?: string;
  link?: string;
  alt_text?: string;
  media_source: Record<string, unknown>;
  images: Fetched[];
  video?: { mediaId: string; cover: Fetched | { keyFrameTime: number } };
  metrics: Record<string, number>;
}

export interface StoredMedia {
  id: string;
  owner: string;
  key: string;
  policy: string;
  status: 'registered' | 'processing' | 'succeeded';
  pollsLeft: number;
  upload?: Fetched & { fields: Record<string, string> };
  uploads: number;
}

/** Answers, and says so (true) for the OAuth stand-in's `api` hook. */
const send = (res: ServerResponse, status: number, body?: unknown): true => {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return true;
};
const refuse = (res: ServerResponse, status: number, code: number, message: string) => send(res, status, { code, message });

export class PinterestStandIn {
  readonly oauth: OAuthNetwork;
  readonly boards: Board[] = [];
  readonly pins = new Map<string, StoredPin>();
  readonly media = new Map<string, StoredMedia>();
  readonly requests: { method: string; path: string }[] = [];
  /** Where media URLs under `from` (PUBLIC_BASE_URL) are fetched from (the test service). */
  mediaOrigin: { from: string; to: string } | undefined;
  /** The next this many API calls answer 429. */
  throttleNext = 0;
  /** The app has Trial access, and this is production: POST /v5/pins is refused with code 29. */
  trialAccess = false;
  /** How many GET /v5/media/{id} answers say `processing` after the upload. */
  processingPolls = 1;
  /** Called once a pin is created, before the answer: true holds the answer forever (a worker killed meanwhile). */
  holdPin: (() => boolean) | undefined;
  #sequence = 1_100_000_000_000_000_000n;

  private constructor(redirectUris: string[]) {
    this.oauth = new OAuthNetwork(redirectUris, {
      paths: { authorize: '/oauth/', token: '/v5/oauth/token', revoke: '/v5/oauth/revoke' },
      clientAuthentication: 'basic',
      refreshTokens: 'rotated',
      // Scopes comma-separated (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/).
      scopeSeparator: ',',
      errorBody: (_error, description) => ({ code: 1, message: description }),
    });
    this.oauth.api = (req, res, url) => this.#handle(req, res, url);
  }

  static async start(redirectUris: string[]): Promise<PinterestStandIn> {
    const standIn = new PinterestStandIn(redirectUris);
    await standIn.oauth.start();
    return standIn;
  }

  get url(): string {
    return this.oauth.url;
  }

  /** The service's settings for this stand-in. */
  get env(): Record<string, string> {
    return {
      PINTEREST_CLIENT_ID: this.oauth.clientId,
      PINTEREST_CLIENT_SECRET: this.oauth.clientSecret,
      PINTEREST_API_BASE_URL: this.url,
      PINTEREST_AUTH_BASE_URL: this.url,
    };
  }

  async stop(): Promise<void> {
    await this.oauth.stop();
  }

  /** The person who authorizes next, and their boards. */
  signInAs(user: NetworkUser, boards: Omit<Board, 'owner'>[]): void {
    this.oauth.user = user;
    this.boards.push(...boards.map((board) => ({ ...board, owner: user.id })));
  }

  #nextId(): string {
    this.#sequence += 1n;
    return String(this.#sequence);
  }

  async #handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search });
    if (req.method === 'POST' && url.pathname === '/upload/') return this.#upload(req, res);
    if (!url.pathname.startsWith('/v5/')) return false;
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = this.oauth.userOf(token);
    if (!user) return refuse(res, 401, 2, 'Authentication failed.');
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return refuse(res, 429, 8, 'You have exceeded your rate limit. Try again later.');
    }
    const route = `${req.method} ${url.pathname}`;
    const path = url.pathname.split('/');
    if (route === 'GET /v5/user_account') {
      const account = { account_type: 'BUSINESS', id: user.id, username: user.username, business_name: user.name, profile_image: user.profileImageUrl };
      return send(res, 200, account);
    }
    if (route === 'GET /v5/boards') {
      const pageSize = Number(url.searchParams.get('page_size') ?? 25);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 250) return refuse(res, 400, 1, 'Invalid parameters: page_size must be 1 to 250.');
      const owned = this.boards.filter((board) => board.owner === user.id);
      const bookmark = url.searchParams.get('bookmark');
      const start = bookmark === null ? 0 : Number(Buffer.from(bookmark, 'base64url').toString());
      if (!Number.isInteger(start) || start < 0 || start > owned.length) return refuse(res, 400, 1, 'Invalid parameters: bookmark is not valid.');
      const items = owned.slice(start, start + pageSize).map(({ id, name }) => ({ id, name, privacy: 'PUBLIC', owner: { username: user.username } }));
      const next = start + pageSize < owned.length ? Buffer.from(String(start + pageSize)).toString('base64url') : null;
      return send(res, 200, { items, bookmark: next });
    }
    if (req.method === 'GET' && path[2] === 'boards' && path[4] === 'pins' && path.length === 5) {
      if (!this.boards.some((board) => board.id === path[3] && board.owner === user.id)) return refuse(res, 404, 1, 'Board not found.');
      const items = [...this.pins.values()]
        .filter((pin) => pin.board_id === path[3])
        .reverse()
        .slice(0, Number(url.searchParams.get('page_size') ?? 25));
      return send(res, 200, { items: items.map(pinView), bookmark: null });
    }
    if (route === 'POST /v5/pins' && this.trialAccess)
      return refuse(
        res,
        403,
        29,
        'Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.',
      );
    if (route === 'POST /v5/pins') return this.#createPin(res, user, await jsonOf(req));
    if (route === 'POST /v5/media') {
      const body = (await jsonOf(req)) as { media_type?: string } | undefined;
      if (body?.media_type !== 'video') return refuse(res, 400, 1, 'Invalid parameters: media_type must be video.');
      const media: StoredMedia = {
        id: this.#nextId(),
        owner: user.id,
        key: `uploads/${randomBytes(4).toString('hex')}/video`,
        policy: randomBytes(12).toString('base64'),
        status: 'registered',
        pollsLeft: this.processingPolls,
        uploads: 0,
      };
      this.media.set(media.id, media);
      const upload_parameters = {
        'x-amz-date': '20261126T120000Z',
        'x-amz-signature': createHash('sha256').update(media.policy).digest('hex'),
        'x-amz-security-token': 'token',
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        key: media.key,
        policy: media.policy,
        'x-amz-credential': 'ASIA/20261126/us-east-1/s3/aws4_request',
        'Content-Type': 'multipart/form-data',
      };
      return send(res, 201, { media_id: media.id, media_type: 'video', upload_url: `${this.url}/upload/`, upload_parameters });
    }
    if (req.method === 'GET' && path[2] === 'media' && path.length === 4) {
      const media = this.media.get(path[3]!);
      if (!media || media.owner !== user.id) return refuse(res, 404, 1, 'Media not found.');
      if (media.status === 'processing' && media.pollsLeft-- <= 0) media.status = 'succeeded';
      return send(res, 200, { media_id: media.id, media_type: 'video', status: media.status });
    }
    if (req.method === 'GET' && path[2] === 'pins' && path[4] === 'analytics') {
      const pin = this.pins.get(path[3]!);
      if (!pin || pin.owner !== user.id) return refuse(res, 404, 1, 'Pin not found.');
      const missing = ['start_date', 'end_date', 'metric_types'].filter((name) => !url.searchParams.get(name));
      if (missing.length) return refuse(res, 400, 1, `Missing parameters: ${missing.join(', ')}`);
      const asked = url.searchParams.get('metric_types')!.split(',');
      const summary = Object.fromEntries(asked.map((metric) => [metric, pin.metrics[metric] ?? 0]));
      return send(res, 200, { all: { lifetime_metrics: summary, summary_metrics: summary, daily_metrics: [] } });
    }
    return refuse(res, 404, 1, `No route ${route}`);
  }

  async #createPin(res: ServerResponse, user: NetworkUser, body: unknown): Promise<true> {
    const pin = (body ?? {}) as Partial<StoredPin>;
    for (const [field, max] of [
      ['title', 100],
      ['description', 800],
      ['link', 2048],
      ['alt_text', 500],
    ] as const) {
      const value = pin[field];
      if (value !== undefined && (typeof value !== 'string' || value.length > max))
        return refuse(res, 400, 1, `Invalid parameters: ${field} is longer than ${max}.`);
    }
    if (typeof pin.board_id !== 'string' || !/^\d+$/.test(pin.board_id)) return refuse(res, 400, 1, "Invalid parameters: 'board_id' does not match '^\\d+$'.");
    if (!this.boards.some((board) => board.id === pin.board_id && board.owner === user.id)) return refuse(res, 404, 1, 'Board not found.');
    const source = (pin.media_source ?? {}) as Record<string, unknown>;
    const images: Fetched[] = [];
    let video: StoredPin['video'];
    if (source.source_type === 'image_url' || source.source_type === 'multiple_image_urls') {
      const urls = source.source_type === 'image_url' ? [source.url] : ((source.items ?? []) as { url?: unknown }[]).map((item) => item.url);
      if (source.source_type === 'multiple_image_urls' && (urls.length < 2 || urls.length > 5))
        return refuse(res, 400, 1, 'Invalid parameters: items must hold 2 to 5 images.');
      for (const url of urls) {
        const fetched = await this.#fetch(url);
        if (typeof fetched === 'string') return refuse(res, 400, 1, fetched);
        if (!/^image\/(jpeg|png)$/.test(fetched.contentType)) return refuse(res, 400, 1, `Sorry, that image type (${fetched.contentType}) is not supported.`);
        images.push(fetched);
      }
    } else if (source.source_type === 'video_id') {
      const media = this.media.get(String(source.media_id));
      if (!media || media.owner !== user.id) return refuse(res, 400, 1, 'Invalid parameters: media_id is unknown.');
      if (media.status !== 'succeeded') return refuse(res, 400, 1, `The video is not ready yet (${media.status}).`);
      let cover: Fetched | { keyFrameTime: number };
      if (typeof source.cover_image_url === 'string') {
        const fetched = await this.#fetch(source.cover_image_url);
        if (typeof fetched === 'string') return refuse(res, 400, 1, fetched);
        if (!fetched.contentType.startsWith('image/')) return refuse(res, 400, 1, 'The cover image is not an image.');
        cover = fetched;
      } else if (Number.isInteger(source.cover_image_key_frame_time) && (source.cover_image_key_frame_time as number) >= 0) {
        cover = { keyFrameTime: source.cover_image_key_frame_time as number };
      } else return refuse(res, 400, 1, 'Invalid parameters: a video pin needs cover_image_url or cover_image_key_frame_time.');
      video = { mediaId: media.id, cover };
    } else return refuse(res, 400, 1, `Invalid parameters: media_source.source_type ${String(source.source_type)} is not supported.`);
    const stored: StoredPin = {
      ...(pin as StoredPin),
      id: this.#nextId(),
      owner: user.id,
      images,
      ...(video ? { video } : {}),
      metrics: { IMPRESSION: 120, SAVE: 7, PIN_CLICK: 9, OUTBOUND_CLICK: 3, VIDEO_MRC_VIEW: video ? 40 : 0 },
    };
    this.pins.set(stored.id, stored);
    if (this.holdPin?.()) return true;
    return send(res, 201, pinView(stored));
  }

  /** S3's form upload: the parameters Pinterest handed out, then `file`; fields after it would be ignored. */
  async #upload(req: IncomingMessage, res: ServerResponse): Promise<true> {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(req.headers['content-type']))?.slice(1).find(Boolean);
    if (!boundary) return send(res, 400, 'not a multipart form');
    const form = await streamedForm(req, boundary);
    const media = [...this.media.values()].find((candidate) => candidate.key === form.fields.key);
    if (!media || form.fields.policy !== media.policy || form.fields['x-amz-signature'] !== createHash('sha256').update(media.policy).digest('hex'))
      return send(res, 403, 'AccessDenied: Invalid according to Policy');
    if (!form.file) return send(res, 400, 'MalformedPOSTRequest: no file field');
    media.uploads++;
    media.upload = { ...form.file, fields: form.fields };
    media.status = 'processing';
    return send(res, 204);
  }

  async #fetch(url: unknown): Promise<Fetched | string> {
    if (typeof url !== 'string' || !URL.canParse(url)) return 'Sorry, we could not fetch the image: the URL is missing or invalid.';
    const reached = this.mediaOrigin && url.startsWith(this.mediaOrigin.from) ? this.mediaOrigin.to + url.slice(this.mediaOrigin.from.length) : url;
    const answer = await fetch(reached).catch(() => null);
    if (!answer?.ok) return `Sorry, we could not fetch the image (${answer?.status ?? 'no answer'}).`;
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    return { contentType: answer.headers.get('content-type') ?? '', bytes, sha256: hash.digest('hex') };
  }
}

const pinView = (pin: StoredPin) => ({
  id: pin.id,
  board_id: pin.board_id,
  title: pin.title ?? null,
  description: pin.description ?? null,
  link: pin.link ?? null,
  alt_text: pin.alt_text ?? null,
  created_at: new Date().toISOString(),
  creative_type: pin.video ? 'VIDEO' : pin.images.length > 1 ? 'CAROUSEL' : 'REGULAR',
});

async function jsonOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
