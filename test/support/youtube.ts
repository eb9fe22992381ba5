// A stand-in for YouTube, as Google's references document the calls the adapter makes (and that Google's own Node
// client, @googleapis/youtube, makes for the same methods: test/http/youtubeClient.test.ts):
//   Google OAuth 2.0 for web server apps (the shared OAuth stand-in, test/support/oauthNetwork.ts, with Google's
//     paths, the secret in the form, a refresh token for `access_type=offline`, none again on refresh)
//     https://developers.google.com/identity/protocols/oauth2/web-server
//   channels.list  https://developers.google.com/youtube/v3/docs/channels/list (part required; mine=true; a token
//     without youtube.readonly/youtube/youtube.force-ssl is 403 insufficientPermissions)
//   videos.insert, resumable  https://developers.google.com/youtube/v3/docs/videos/insert,
//     https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (X-Upload-Content-Length and
//     -Type, the resource as JSON, the session in `Location`; PUT chunks with Content-Range in multiples of 256 KiB
//     but the last, 308 with Range, `bytes */TOTAL` asks where it stands; 200 with the video after the last byte)
//   videos resource  https://developers.google.com/youtube/v3/docs/videos (title required, <= 100 characters, no
//     < or >; description <= 5,000 bytes; privacyStatus; uploadStatus uploaded -> processed,
//     processingDetails.processingStatus processing -> succeeded)
//   videos.list  https://developers.google.com/youtube/v3/docs/videos/list (statistics as strings)
//   thumbnails.set  https://developers.google.com/youtube/v3/docs/thumbnails/set (image/jpeg, image/png or
//     application/octet-stream, at most 2 MB; 404 videoNotFound)
//   commentThreads.insert  https://developers.google.com/youtube/v3/docs/commentThreads/insert (youtube.force-ssl
//     only; part=snippet; snippet.channelId, videoId, topLevelComment.snippet.textOriginal required; 404
//     videoNotFound; 403 commentsDisabled)
//   commentThreads.list  https://developers.google.com/youtube/v3/docs/commentThreads/list (part snippet and/or
//     replies; videoId; order=time, the default, newest first; maxResults 1 to 100, 20 by default; pageToken and
//     nextPageToken; textFormat html, the default, or plainText; moderationStatus published by default, heldForReview
//     and likelySpam only for the video's channel; 403 commentsDisabled for a video whose comments are off; 404
//     videoNotFound). Comments held for review or taken for spam are not listed until the channel publishes them.
//   commentThreads resource  https://developers.google.com/youtube/v3/docs/commentThreads#resource (`replies`: "a
//     limited number of replies": five here, the first; the rest through comments.list; snippet.totalReplyCount,
//     snippet.canReply false while comments are off)
//   comments resource  https://developers.google.com/youtube/v3/docs/comments#resource (textOriginal "only returned
//     if it is accessible to the authenticated user, which is only guaranteed if the user is the comment's author";
//     textDisplay in the textFormat asked; authorDisplayName, authorChannelUrl, authorChannelId.value, parentId on a
//     reply, publishedAt). A reply's id is its parent's, a dot and its own (as YouTube's are); only top-level
//     comments have replies (comments.insert's operationNotSupported: a reply answers a top-level comment).
//   comments.list  https://developers.google.com/youtube/v3/docs/comments/list (part=snippet; parentId; maxResults 1
//     to 100, 20 by default; pageToken; textFormat; replies oldest first)
//   comments.insert  https://developers.google.com/youtube/v3/docs/comments/insert (youtube.force-ssl; part=snippet;
//     snippet.parentId and snippet.textOriginal; 400 parentIdMissing, commentTextRequired, commentTextTooLong,
//     operationNotSupported where the thread cannot be replied to; 404 parentCommentNotFound; 50 units)
//   deleted comments  comments.delete https://developers.google.com/youtube/v3/docs/comments/delete: a deleted
//     comment is gone from every list (no trace), and its replies with it
//   errors  https://developers.google.com/youtube/v3/docs/errors: `{error: {code, message, errors: [{message,
//     domain, reason}], status}}`; 401 authError with WWW-Authenticate; 403 quotaExceeded; 403 rateLimitExceeded.
//   quota  Google's quota calculator https://developers.google.com/youtube/v3/determine_quota_cost: videos.insert
//     has a bucket of its own (100 calls a day by default), every other call costs units of the project's 10,000 a
//     day (a list 1, thumbnails.set 50, commentThreads.insert 50); past either, 403 quotaExceeded (domain
//     youtube.quota, the errors page). Counted per stand-in (one project), never reset (a test lasts less than a day).
//   custom thumbnails  thumbnails.set's errors (https://developers.google.com/youtube/v3/docs/thumbnails/set#errors):
//     403 forbidden "The authenticated user doesn't have permissions to upload and set custom video thumbnails." for
//     a channel not allowed them (unverified: https://support.google.com/youtube/answer/72431); the video stays.
// Uploaded bytes are counted and hashed, never kept.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export interface Channel {
  id: string;
  title: string;
  customUrl: string;
}

export interface UploadSession {
  channelId: string;
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  total: number;
  contentType: string;
  /** Bytes the session holds; every byte received is counted, so a byte sent twice shows in `bytesReceived`. */
  received: number;
  bytesReceived: number;
  /** The Content-Range of each PUT to the session, in order. */
  contentRanges: string[];
  hash: Hash;
  videoId: string | null;
}

export interface StoredVideo {
  id: string;
  channelId: string;
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: { privacyStatus: string; selfDeclaredMadeForKids?: boolean };
  sha256: string;
  size: number;
  pollsLeft: number;
  thumbnail: { sha256: string; contentType: string } | null;
  statistics: { viewCount: string; likeCount: string; commentCount: string };
}

export type ModerationStatus = 'published' | 'heldForReview' | 'likelySpam';

export interface StoredComment {
  id: string;
  videoId: string;
  /** The channel that commented. */
  channelId: string;
  text: string;
  /** The top-level comment a reply answers; null for a top-level comment (a thread's). */
  parentId: string | null;
  publishedAt: Date;
  moderationStatus: ModerationStatus;
}

export interface YouTubeStandInOptions {
  redirectUris: string[];
  /** videos.list answers `processing` this many times after the upload. */
  processingPolls?: number;
  /** How long each chunk's answer waits after its bytes arrived (to stop a worker mid-upload). */
  chunkDelayMs?: number;
  /** videos.insert calls the project has a day (Google's default 100). */
  uploadsPerDay?: number;
  /** Units the project has a day for every other call (Google's default 10,000). */
  unitsPerDay?: number;
}

/** Units a call costs by Google's quota calculator; videos.insert counts in its own bucket instead. */
function unitsOf(route: string): number {
  if (['POST /upload/youtube/v3/thumbnails/set', 'POST /youtube/v3/commentThreads', 'POST /youtube/v3/comments'].includes(route)) return 50;
  return 1;
}

/** How many replies a thread embeds (`replies.comments`): the reference says only "a limited number". */
const embeddedReplies = 5;

/** Page tokens: opaque to clients, the offset of the page here. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const offsetOf = (token: string | null) => {
  if (token === null) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
};

/** textDisplay as `textFormat` asks: HTML (the default) escapes the text and breaks its lines. */
const displayed = (text: string, format: string | null) =>
  format === 'plainText' ? text : text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');

const scopes = (name: string) => `https://www.googleapis.com/auth/${name}`;
const readScopes = ['youtube.readonly', 'youtube', 'youtube.force-ssl'].map(scopes);
const uploadScopes = ['youtube.upload', 'youtube', 'youtube.force-ssl'].map(scopes);
const chunkUnit = 256 * 1024;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));

/** Google's error answer. */
export function googleError(res: ServerResponse, code: number, reason: string, message: string, extra: Record<string, string> = {}): void {
  const statuses: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
  };
  const status = statuses[code];
  const domain = reason === 'quotaExceeded' ? 'youtube.quota' : reason === 'authError' ? 'global' : 'youtube.api';
  json(res, code, { error: { code, message, errors: [{ message, domain, reason }], ...(status ? { status } : {}) } }, extra);
}

/** `part`, comma-separated or repeated (Google's client repeats it). */
const partsOf = (query: URLSearchParams) =>
  query
    .getAll('part')
    .flatMap((part) => part.split(','))
    .filter(Boolean);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class YouTubeStandIn {
  readonly oauth: OAuthNetwork;
  /** The channel of each Google account, by its user id (none: the account has no channel). */
  readonly channels = new Map<string, Channel>();
  readonly sessions = new Map<string, UploadSession>();
  readonly videos = new Map<string, StoredVideo>();
  readonly comments = new Map<string, StoredComment>();
  /** Comments are refused (403 commentsDisabled) while set. */
  refuseComments = false;
  /** Videos whose channel turned comments off: lists answer 403 commentsDisabled, replies 400 operationNotSupported. */
  readonly commentsOff = new Set<string>();
  /** Channels whose new comments are held for review (the channel's moderation setting): not listed until published. */
  readonly holdingForReview = new Set<string>();
  /** The next this many comments are made, but answered 503 backendError, as if the answer were lost. */
  lostCommentAnswers = 0;
  readonly requests: { method: string; path: string }[] = [];
  /** Every call answers 403 quotaExceeded while set. */
  quotaExceeded = false;
  /** The project's use: videos.insert calls and the units of every other call. */
  uploadsUsed = 0;
  unitsUsed = 0;
  readonly uploadsPerDay: number;
  readonly unitsPerDay: number;
  /** Channels not allowed custom thumbnails (not verified): thumbnails.set answers 403 forbidden. */
  readonly withoutCustomThumbnails = new Set<string>();
  /** The next this many calls answer 403 rateLimitExceeded. */
  rateLimitNext = 0;
  chunkDelayMs: number;
  /** The upload stops being read once a session holds this many bytes, until its connection closes (a worker killed mid-upload). */
  stallAtByte: number | null = null;
  /**
   * Session URLs at this origin rather than the stand-in's own: an answer naming a host that is not Google's
   * (Google's are at www.googleapis.com, see src/providers/youtube/api.ts).
   */
  sessionsAt: string | null = null;
  url = '';
  readonly #server: Server;
  readonly #processingPolls: number;

  private constructor(options: YouTubeStandInOptions) {
    this.oauth = new OAuthNetwork(options.redirectUris, {
      paths: { authorize: '/o/oauth2/v2/auth', token: '/token', revoke: '/revoke' },
      clientAuthentication: 'post',
      refreshTokens: 'access_type=offline',
    });
    this.#processingPolls = options.processingPolls ?? 1;
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
    this.uploadsPerDay = options.uploadsPerDay ?? 100;
    this.unitsPerDay = options.unitsPerDay ?? 10_000;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((caught: unknown) => googleError(res, 500, 'backendError', String(caught)));
    });
  }

  static async start(options: YouTubeStandInOptions): Promise<YouTubeStandIn> {
    const standIn = new YouTubeStandIn(options);
    await standIn.oauth.start();
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`;
    return standIn;
  }

  /** The service's settings for this stand-in as the operator's Google project (its client, and where Google's hosts are). */
  serviceSettings(): Record<string, string> {
    return {
      YOUTUBE_CLIENT_ID: this.oauth.clientId,
      YOUTUBE_CLIENT_SECRET: this.oauth.clientSecret,
      YOUTUBE_API_BASE_URL: this.url,
      YOUTUBE_AUTH_BASE_URL: this.oauth.url,
      YOUTUBE_TOKEN_BASE_URL: this.oauth.url,
    };
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await this.oauth.stop();
  }

  /** The Google account that authorizes next, and its channel. */
  signInAs(user: NetworkUser, channel: Channel | null): void {
    this.oauth.user = user;
    if (channel) this.channels.set(user.id, channel);
    else this.channels.delete(user.id);
  }

  /** An access token for the account signed in, by the authorization code flow as an app would run it. */
  async accessToken(redirectUri: string, scope = [...uploadScopes.slice(0, 1), ...readScopes.slice(0, 1)].join(' ')): Promise<string> {
    const authorize = new URL(`${this.oauth.url}/o/oauth2/v2/auth`);
    authorize.search = new URLSearchParams({ response_type: 'code', client_id: this.oauth.clientId, redirect_uri: redirectUri, scope, state: 's' }).toString();
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const answer = await fetch(`${this.oauth.url}/token`, {
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

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search });
    const uploadId = url.searchParams.get('upload_id');
    // A session URL is the credential of its upload (Google asks no token for it).
    if (req.method === 'PUT' && url.pathname === '/upload/youtube/v3/videos' && uploadId) return this.#chunk(req, res, uploadId);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = this.oauth.userOf(token);
    if (!user) {
      return googleError(
        res,
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        },
      );
    }
    const route = `${req.method} ${url.pathname}`;
    const insert = route === 'POST /upload/youtube/v3/videos';
    if (this.quotaExceeded || (insert ? this.uploadsUsed >= this.uploadsPerDay : this.unitsUsed + unitsOf(route) > this.unitsPerDay)) {
      return googleError(
        res,
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
      );
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return googleError(res, 403, 'rateLimitExceeded', 'The request cannot be completed because you have exceeded your quota.');
    }
    if (insert) this.uploadsUsed++;
    else this.unitsUsed += unitsOf(route);
    const granted = this.oauth.scopeOf(token);
    const allowed = (needed: string[]) => needed.some((scope) => granted.includes(scope));
    const channel = this.channels.get(user.id);
    if (route === 'GET /youtube/v3/channels') {
      if (!allowed(readScopes)) return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      return this.#channels(res, url.searchParams, channel);
    }
    if (route === 'GET /youtube/v3/videos') return this.#videosList(res, url.searchParams);
    if (route === 'GET /youtube/v3/commentThreads') {
      if (!allowed(readScopes)) return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      return this.#listThreads(res, url.searchParams, channel);
    }
    if (route === 'GET /youtube/v3/comments') {
      if (!allowed(readScopes)) return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      return this.#listReplies(res, url.searchParams, channel);
    }
    if (route === 'POST /youtube/v3/comments') {
      if (!granted.includes(scopes('youtube.force-ssl')))
        return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      return this.#insertReply(res, url.searchParams, JSON.parse((await bodyOf(req)).toString('utf8') || '{}'), channel);
    }
    if (route === 'POST /youtube/v3/commentThreads') {
      if (!granted.includes(scopes('youtube.force-ssl')))
        return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      return this.#insertComment(res, url.searchParams, JSON.parse((await bodyOf(req)).toString('utf8') || '{}'), channel);
    }
    if (route === 'POST /upload/youtube/v3/videos' || route === 'POST /upload/youtube/v3/thumbnails/set') {
      if (!allowed(uploadScopes)) return googleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
      if (!channel) return googleError(res, 401, 'youtubeSignupRequired', 'Unauthorized');
      if (url.pathname.endsWith('/thumbnails/set')) return this.#setThumbnail(req, res, url.searchParams, channel);
      return this.#startUpload(req, res, url.searchParams, channel);
    }
    googleError(res, 404, 'notFound', `No route ${route}`);
  }

  #insertComment(res: ServerResponse, query: URLSearchParams, body: any, channel: Channel | undefined): void {
    if (!partsOf(query).includes('snippet')) return googleError(res, 400, 'required', 'Required parameter: part');
    const snippet = body?.snippet;
    const text = snippet?.topLevelComment?.snippet?.textOriginal;
    if (!snippet?.channelId || !snippet.videoId) return googleError(res, 400, 'required', 'Required: snippet.channelId and snippet.videoId');
    if (typeof text !== 'string' || !text.trim())
      return googleError(res, 400, 'commentTextRequired', 'The comment resource must contain a value for the snippet.textOriginal property.');
    if ([...text].length > 10_000)
      return googleError(res, 400, 'commentTextTooLong', 'The comment resource contains too many characters in the snippet.textOriginal property.');
    // snippet.channelId is the channel of the video the thread is on; the comment is the token's channel's.
    if (!channel) return googleError(res, 403, 'forbidden', 'The comment cannot be created due to insufficient permissions.');
    const video = this.videos.get(snippet.videoId);
    if (!video) return googleError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
    if (snippet.channelId !== video.channelId) return googleError(res, 403, 'forbidden', 'The comment cannot be created due to insufficient permissions.');
    if (this.refuseComments || this.commentsOff.has(video.id))
      return googleError(res, 403, 'commentsDisabled', 'The video identified by the videoId parameter has disabled comments.');
    const comment = this.#store({ id: `Ug${randomBytes(12).toString('base64url')}`, videoId: video.id, channelId: channel.id, text, parentId: null });
    if (this.lostCommentAnswers > 0) {
      this.lostCommentAnswers--;
      return googleError(res, 503, 'backendError', 'Backend Error');
    }
    json(res, 200, {
      kind: 'youtube#commentThread',
      etag: 'etag',
      id: comment.id,
      snippet: {
        channelId: video.channelId,
        videoId: video.id,
        topLevelComment: this.#commentResource(comment, channel, null),
        canReply: true,
        totalReplyCount: 0,
        isPublic: true,
      },
    });
  }

  /** Stores a comment as YouTube would take it from `channelId`: held for review where that channel's video holds new comments. */
  #store(comment: Omit<StoredComment, 'publishedAt' | 'moderationStatus'>): StoredComment {
    const owner = this.videos.get(comment.videoId)?.channelId;
    const moderationStatus = owner && owner !== comment.channelId && this.holdingForReview.has(owner) ? 'heldForReview' : 'published';
    // Strictly later than every comment before it, so newest first is one order even within a millisecond.
    const latest = Math.max(0, ...[...this.comments.values()].map((stored) => stored.publishedAt.getTime()));
    const stored: StoredComment = { ...comment, publishedAt: new Date(Math.max(Date.now(), latest + 1)), moderationStatus };
    this.comments.set(stored.id, stored);
    return stored;
  }

  /** The channel's moderation: publishes (or holds again) a comment held for review. */
  moderate(commentId: string, status: ModerationStatus): void {
    this.comments.get(commentId)!.moderationStatus = status;
  }

  /** comments.delete as the comment's author or the video's channel would: the comment and its replies are gone. */
  deleteComment(commentId: string): void {
    for (const comment of [...this.comments.values()]) if (comment.id === commentId || comment.parentId === commentId) this.comments.delete(comment.id);
  }

  #commentResource(comment: StoredComment, viewer: Channel | undefined, format: string | null) {
    const author = [...this.channels.values()].find((candidate) => candidate.id === comment.channelId);
    return {
      kind: 'youtube#comment',
      etag: 'etag',
      id: comment.id,
      snippet: {
        channelId: this.videos.get(comment.videoId)?.channelId,
        videoId: comment.videoId,
        textDisplay: displayed(comment.text, format),
        ...(viewer?.id === comment.channelId ? { textOriginal: comment.text } : {}),
        ...(comment.parentId ? { parentId: comment.parentId } : {}),
        authorDisplayName: author?.customUrl ?? comment.channelId,
        authorProfileImageUrl: `https://yt3.ggpht.example/${comment.channelId}=s48`,
        authorChannelUrl: `http://www.youtube.com/${author?.customUrl ?? `channel/${comment.channelId}`}`,
        authorChannelId: { value: comment.channelId },
        canRate: true,
        viewerRating: 'none',
        likeCount: 0,
        moderationStatus: comment.moderationStatus,
        publishedAt: comment.publishedAt.toISOString(),
        updatedAt: comment.publishedAt.toISOString(),
      },
    };
  }

  /** The page at `pageToken` of `items`, as Google pages its lists; null for a page token it never gave. */
  #page<T>(items: T[], query: URLSearchParams): { items: T[]; nextPageToken?: string; pageInfo: { totalResults: number; resultsPerPage: number } } | null {
    const size = Number(query.get('maxResults') ?? 20);
    const offset = offsetOf(query.get('pageToken'));
    if (offset === null || !Number.isInteger(size) || size < 1 || size > 100) return null;
    const page = items.slice(offset, offset + size);
    return {
      items: page,
      ...(offset + size < items.length ? { nextPageToken: pageToken(offset + size) } : {}),
      pageInfo: { totalResults: items.length, resultsPerPage: size },
    };
  }

  #listThreads(res: ServerResponse, query: URLSearchParams, viewer: Channel | undefined): void {
    const parts = partsOf(query);
    if (!parts.length || parts.some((part) => !['id', 'snippet', 'replies'].includes(part)))
      return googleError(res, 400, 'required', 'Required parameter: part');
    const video = this.videos.get(query.get('videoId') ?? '');
    if (!video) return googleError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.');
    if (this.commentsOff.has(video.id))
      return googleError(res, 403, 'commentsDisabled', 'The video identified by the videoId parameter has disabled comments.');
    const status = query.get('moderationStatus') ?? 'published';
    if (status !== 'published' && viewer?.id !== video.channelId)
      return googleError(res, 403, 'forbidden', 'The comment thread cannot be retrieved due to insufficient permissions.');
    const format = query.get('textFormat');
    const listed = (comment: StoredComment) => comment.videoId === video.id && comment.moderationStatus === status;
    const threads = [...this.comments.values()].filter((comment) => comment.parentId === null && listed(comment)).reverse();
    const page = this.#page(threads, query);
    if (!page) return googleError(res, 400, 'invalidPageToken', 'The request specifies an invalid page token.');
    const items = page.items.map((top) => {
      const replies = [...this.comments.values()].filter((comment) => comment.parentId === top.id && comment.moderationStatus === 'published');
      return {
        kind: 'youtube#commentThread',
        etag: 'etag',
        id: top.id,
        ...(parts.includes('snippet')
          ? {
              snippet: {
                channelId: video.channelId,
                videoId: video.id,
                topLevelComment: this.#commentResource(top, viewer, format),
                canReply: !this.commentsOff.has(video.id),
                totalReplyCount: replies.length,
                isPublic: true,
              },
            }
          : {}),
        ...(parts.includes('replies') && replies.length
          ? { replies: { comments: replies.slice(0, embeddedReplies).map((reply) => this.#commentResource(reply, viewer, format)) } }
          : {}),
      };
    });
    json(res, 200, { kind: 'youtube#commentThreadListResponse', etag: 'etag', ...page, items });
  }

  #listReplies(res: ServerResponse, query: URLSearchParams, viewer: Channel | undefined): void {
    if (!partsOf(query).includes('snippet')) return googleError(res, 400, 'required', 'Required parameter: part');
    const parentId = query.get('parentId');
    if (!parentId) return googleError(res, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: id, parentId');
    const parent = this.comments.get(parentId);
    if (!parent) return googleError(res, 404, 'commentNotFound', 'One or more of the comments identified by the id parameter could not be found.');
    const replies = [...this.comments.values()].filter((comment) => comment.parentId === parentId && comment.moderationStatus === 'published');
    const page = this.#page(replies, query);
    if (!page) return googleError(res, 400, 'invalidPageToken', 'The request specifies an invalid page token.');
    const format = query.get('textFormat');
    json(res, 200, {
      kind: 'youtube#commentListResponse',
      etag: 'etag',
      ...page,
      items: page.items.map((reply) => this.#commentResource(reply, viewer, format)),
    });
  }

  #insertReply(res: ServerResponse, query: URLSearchParams, body: any, channel: Channel | undefined): void {
    if (!partsOf(query).includes('snippet')) return googleError(res, 400, 'required', 'Required parameter: part');
    const parentId = body?.snippet?.parentId;
    const text = body?.snippet?.textOriginal;
    if (typeof parentId !== 'string' || !parentId)
      return googleError(res, 400, 'parentIdMissing', 'The comment you are inserting must be linked to a parent comment.');
    if (typeof text !== 'string' || !text.trim())
      return googleError(res, 400, 'commentTextRequired', 'The comment resource must contain a value for the snippet.textOriginal property.');
    if ([...text].length > 10_000)
      return googleError(res, 400, 'commentTextTooLong', 'The comment resource contains too many characters in the snippet.textOriginal property.');
    if (!channel) return googleError(res, 403, 'forbidden', 'The comment cannot be created due to insufficient permissions.');
    const parent = this.comments.get(parentId);
    if (!parent) return googleError(res, 404, 'parentCommentNotFound', 'The specified parent comment could not be found.');
    if (parent.parentId !== null || this.commentsOff.has(parent.videoId))
      return googleError(
        res,
        400,
        'operationNotSupported',
        'The API user is not able to insert a comment in reply to the top-level comment identified by the parentId.',
      );
    const reply = this.#store({
      id: `${parent.id}.${randomBytes(8).toString('base64url')}`,
      videoId: parent.videoId,
      channelId: channel.id,
      text,
      parentId: parent.id,
    });
    if (this.lostCommentAnswers > 0) {
      this.lostCommentAnswers--;
      return googleError(res, 503, 'backendError', 'Backend Error');
    }
    json(res, 200, this.#commentResource(reply, channel, null));
  }

  #channels(res: ServerResponse, query: URLSearchParams, channel: Channel | undefined): void {
    const parts = partsOf(query);
    if (!parts.length) return googleError(res, 400, 'required', 'Required parameter: part');
    if (query.get('mine') !== 'true') return googleError(res, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle');
    const items = channel
      ? [
          {
            kind: 'youtube#channel',
            etag: 'etag',
            id: channel.id,
            ...(parts.includes('snippet')
              ? { snippet: { title: channel.title, description: '', customUrl: channel.customUrl, publishedAt: '2020-01-01T00:00:00Z' } }
              : {}),
          },
        ]
      : [];
    json(res, 200, { kind: 'youtube#channelListResponse', etag: 'etag', pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items });
  }

  async #startUpload(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, channel: Channel): Promise<void> {
    const raw = (await bodyOf(req)).toString('utf8');
    if (query.get('uploadType') !== 'resumable') return googleError(res, 400, 'badRequest', 'This stand-in takes resumable uploads only.');
    const parts = partsOf(query);
    if (!parts.includes('snippet') || !parts.includes('status')) return googleError(res, 400, 'required', 'Required parameter: part');
    const total = Number(req.headers['x-upload-content-length']);
    const contentType = String(req.headers['x-upload-content-type'] ?? '');
    if (!Number.isInteger(total) || total <= 0) return googleError(res, 400, 'badContent', 'X-Upload-Content-Length is missing or invalid.');
    if (!/^video\/|^application\/octet-stream$/.test(contentType)) return googleError(res, 400, 'badContent', `Media type '${contentType}' is not supported.`);
    if (!/^application\/json\b/.test(String(req.headers['content-type']))) return googleError(res, 400, 'parseError', 'The request body is not JSON.');
    const resource = JSON.parse(raw) as UploadSession['resource'];
    const title = resource.snippet?.title;
    if (typeof title !== 'string' || !title.trim())
      return googleError(res, 400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.');
    if ([...title].length > 100 || /[<>]/.test(title)) return googleError(res, 400, 'invalidTitle', 'The request metadata specifies an invalid video title.');
    if (Buffer.byteLength(String(resource.snippet.description ?? '')) > 5000)
      return googleError(res, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.');
    if (!['public', 'unlisted', 'private'].includes(String(resource.status?.privacyStatus)))
      return googleError(res, 400, 'invalidVideoMetadata', 'The request metadata is invalid.');
    const id = randomBytes(12).toString('base64url');
    this.sessions.set(id, {
      channelId: channel.id,
      resource,
      total,
      contentType,
      received: 0,
      bytesReceived: 0,
      contentRanges: [],
      hash: createHash('sha256'),
      videoId: null,
    });
    res
      .writeHead(200, {
        location: `${this.sessionsAt ?? this.url}/upload/youtube/v3/videos?uploadType=resumable&part=${parts.join(',')}&upload_id=${id}`,
        'content-length': '0',
      })
      .end();
  }

  async #chunk(req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<void> {
    const session = this.sessions.get(uploadId);
    if (!session) return void req.resume().on('end', () => googleError(res, 404, 'notFound', 'No such upload session.'));
    session.contentRanges.push(String(req.headers['content-range'] ?? ''));
    const range = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    const answer = () => {
      if (session.videoId) return json(res, 200, this.#resource(this.videos.get(session.videoId)!, ['snippet', 'status']));
      res.writeHead(308, session.received ? { range: `bytes=0-${session.received - 1}`, 'content-length': '0' } : { 'content-length': '0' }).end();
    };
    if (!range || Number(range[3]) !== session.total) return void req.resume().on('end', () => googleError(res, 400, 'badContent', 'Invalid Content-Range.'));
    if (range[1] === undefined) return void req.resume().on('end', answer);
    const start = Number(range[1]);
    const end = Number(range[2]) + 1;
    const last = end === session.total;
    if (start !== session.received || (!last && (end - start) % chunkUnit !== 0)) {
      return void req.resume().on('end', () => googleError(res, 400, 'badContent', 'The chunk does not continue the upload or is not a multiple of 256 KiB.'));
    }
    // Kept as it arrives, as Google keeps what it received of a broken chunk.
    for await (const data of req) {
      const stall = this.stallAtByte;
      const taken =
        stall !== null && session.received + (data as Buffer).length >= stall ? (data as Buffer).subarray(0, stall - session.received) : (data as Buffer);
      session.hash.update(taken);
      session.received += taken.length;
      session.bytesReceived += taken.length;
      if (taken !== data) {
        this.stallAtByte = null;
        req.pause();
        return new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      }
    }
    if (session.received === session.total && !session.videoId) this.#createVideo(session);
    if (this.chunkDelayMs) await sleep(this.chunkDelayMs);
    answer();
  }

  /** A video of the channel, as if uploaded earlier (for figures that need many videos, not their bytes). */
  addVideo(channelId: string, title: string): string {
    const session: UploadSession = {
      channelId,
      resource: { snippet: { title, description: '' }, status: { privacyStatus: 'public' } },
      total: 0,
      contentType: 'video/mp4',
      received: 0,
      bytesReceived: 0,
      contentRanges: [],
      hash: createHash('sha256'),
      videoId: null,
    };
    this.#createVideo(session);
    return session.videoId!;
  }

  #createVideo(session: UploadSession): void {
    const id = randomBytes(8).toString('base64url').slice(0, 11);
    const { snippet, status } = session.resource;
    this.videos.set(id, {
      id,
      channelId: session.channelId,
      snippet: snippet as StoredVideo['snippet'],
      status: status as StoredVideo['status'],
      sha256: session.hash.digest('hex'),
      size: session.total,
      pollsLeft: this.#processingPolls,
      thumbnail: null,
      statistics: { viewCount: '1532', likeCount: '87', commentCount: '9' },
    });
    session.videoId = id;
  }

  #resource(video: StoredVideo, parts: string[]): Record<string, unknown> {
    const processing = video.pollsLeft > 0;
    return {
      kind: 'youtube#video',
      etag: 'etag',
      id: video.id,
      ...(parts.includes('snippet') ? { snippet: { ...video.snippet, channelId: video.channelId } } : {}),
      ...(parts.includes('status') ? { status: { ...video.status, uploadStatus: processing ? 'uploaded' : 'processed' } } : {}),
      ...(parts.includes('processingDetails') ? { processingDetails: { processingStatus: processing ? 'processing' : 'succeeded' } } : {}),
      ...(parts.includes('statistics') ? { statistics: { ...video.statistics, favoriteCount: '0' } } : {}),
    };
  }

  #videosList(res: ServerResponse, query: URLSearchParams): void {
    const parts = partsOf(query);
    if (!parts.length) return googleError(res, 400, 'required', 'Required parameter: part');
    const ids = query
      .getAll('id')
      .flatMap((id) => id.split(','))
      .filter(Boolean);
    const videos = ids.flatMap((id) => this.videos.get(id) ?? []);
    const items = videos.map((video) => this.#resource(video, parts));
    // A status read is what moves processing on.
    if (parts.includes('status') || parts.includes('processingDetails')) for (const video of videos) video.pollsLeft = Math.max(0, video.pollsLeft - 1);
    json(res, 200, { kind: 'youtube#videoListResponse', etag: 'etag', pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items });
  }

  async #setThumbnail(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, channel: Channel): Promise<void> {
    const bytes = await bodyOf(req);
    const video = this.videos.get(query.get('videoId') ?? '');
    if (!video || video.channelId !== channel.id) return googleError(res, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.');
    if (this.withoutCustomThumbnails.has(channel.id))
      return googleError(res, 403, 'forbidden', "The authenticated user doesn't have permissions to upload and set custom video thumbnails.");
    const contentType = String(req.headers['content-type'] ?? '').split(';')[0]!;
    if (!['image/jpeg', 'image/png', 'application/octet-stream'].includes(contentType))
      return googleError(res, 400, 'invalidImage', 'The provided image content is invalid.');
    if (bytes.length > 2 * 1024 * 1024) return googleError(res, 413, 'mediaBodyTooBig', 'The image is larger than 2 MB.');
    video.thumbnail = { sha256: createHash('sha256').update(bytes).digest('hex'), contentType };
    const url = `https://i.ytimg.com/vi/${video.id}/default.jpg`;
    json(res, 200, { kind: 'youtube#thumbnailSetResponse', etag: 'etag', items: [{ default: { url, width: 120, height: 90 } }] });
  }
}
