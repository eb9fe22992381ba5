// A stand-in for Reddit's OAuth API, as its reference documents the calls the adapter makes. Reddit maintains no
// official Node client (PRAW, the Python one, is the reference client), so its answers follow:
//   OAuth (the shared OAuth stand-in, test/support/oauthNetwork.ts)  https://github.com/reddit-archive/reddit/wiki/OAuth2:
//     GET /api/v1/authorize (space-separated scopes, `duration`), POST /api/v1/access_token with HTTP Basic for
//     the code and refresh grants (the refresh token kept), POST /api/v1/revoke_token
//   Every API call's User-Agent is recorded (https://github.com/reddit-archive/reddit/wiki/API "Rules": the form
//     `<platform>:<app ID>:<version string> (by /u/<reddit username>)`), for the tests to hold it to the form.
//   GET /api/v1/me  https://www.reddit.com/dev/api#GET_api_v1_me (`{id, name, icon_img}`; scope identity)
//   A refused bearer token: 401 `{"message": "Unauthorized", "error": 401}` (the OAuth2 wiki: "an invalid or
//     expired token gives a 401"; the body as PRAW's prawcore handles it, prawcore/exceptions.py `ResponseException`)
//   Rate limits  429 `{"message": "Too Many Requests", "error": 429}` with X-Ratelimit-Used, -Remaining and -Reset
//     (seconds to the end of the window), as the API wiki's "Rules" names them
//   POST /api/submit  https://www.reddit.com/dev/api#POST_api_submit (form: api_type=json, sr, kind, title ≤ 300,
//     text | url, flair_id, nsfw, spoiler; scope submit). Refusals come in a 200 as `{json: {errors: [[CODE,
//     message, field]]}}` (gitroomhq/postiz-app's reddit provider: "Reddit rejects submissions with a 200 and an
//     errors array"): SUBREDDIT_NOEXIST, NO_TEXT and TOO_LONG for the title, NO_LINKS in a text-only subreddit,
//     SUBMIT_VALIDATION_FLAIR_REQUIRED, and RATELIMIT ("you are doing that too much. try again in 9 minutes.",
//     r/redditdev's answers as received); a post made: `{json: {errors: [], data: {url, drafts_count, id, name}}}`.
//   Media (PRAW's praw/models/reddit/subreddit.py `_upload_media` and `submit_image`/`submit_video`, and
//     gitroomhq/postiz-app's reddit provider `uploadFileToReddit`, read as they call Reddit):
//     POST /api/media/asset.json (form filepath, mimetype; scope submit) answers `{args: {action, fields: [{name,
//       value}]}, asset: {asset_id, websocket_url}}`, `action` scheme-relative (Reddit's is
//       `//reddit-uploaded-media.s3-accelerate.amazonaws.com`; here this server's host, at /media-upload)
//     POST <action>: S3's form upload (the fields, then `file`; S3 ignores fields after the file and refuses a form
//       whose policy does not match with 403 AccessDenied), answering 201 with `<PostResponse><Location>…` because the
//       fields ask `success_action_status=201` (PRAW and postiz-app both read <Location> out of that XML)
//     POST /api/submit kind=image (url: an uploaded Location) or kind=video (url and video_poster_url) answers
//       `{json: {errors: [], data: {user_submitted_page, websocket_url}}}`, without the post (PRAW waits on the
//       websocket for it; postiz-app: "Media posts only answer with a websocket url"); Reddit makes the post after
//       processing, so it shows in /r/<sr>/new only after `mediaListedAfterReads` reads of the listing (a switch); a
//       url that is no upload's Location is refused (INVALID_IMAGE / INVALID_VIDEO here: Reddit takes only its own
//       uploads for media posts); an image post is listed with `post_hint: "image"` and an i.redd.it url, a video with
//       `is_video: true` and a v.redd.it url (a listing's t3 data as received, e.g. https://pastebin.com/NYy7kbmW)
//   GET /r/<sr>/new  https://www.reddit.com/dev/api#GET_new (a Listing of t3 things, newest first; scope read)
//   GET /api/info?id=t3_…  https://www.reddit.com/dev/api#GET_api_info (ups, num_comments)
//   GET /r/<sr>/about  https://www.reddit.com/dev/api#GET_r_{subreddit}_about (`{kind: 't5', data: {display_name,
//     submission_type: any|self|link, allow_images, allow_videos, ...}}`; a private subreddit answers 403 to
//     non-members, a missing one 404: Pyprohly/reddit-api-doc-notes' subreddit page, "will return an error if the
//     target subreddit is private or banned")
//   GET /api/v1/<sr>/post_requirements  https://www.reddit.com/dev/api#GET_api_v1_{subreddit}_post_requirements (the
//     fields PRAW's `Subreddit.post_requirements` returns: title_text_min_length, title_text_max_length,
//     is_flair_required, body_restriction_policy required|notAllowed|none, and lists of required and blacklisted
//     strings, here empty)
//   GET /r/<sr>/api/link_flair_v2  https://www.reddit.com/dev/api#GET_api_link_flair_v2 (scope flair): the subreddit's
//     link flair templates, an array of `{id, text, type, text_editable, mod_only, background_color, text_color,
//     allowable_content, max_emojis, richtext, css_class}` (the fields PRAW's SubredditLinkFlairTemplates and
//     redditdev's answers show); a subreddit where people may not pick flair answers 403 `{"message": "Forbidden",
//     "error": 403}`, which gitroomhq/postiz-app's reddit provider reads as "no flairs" (it catches and lists none)
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { streamedForm, type Fetched } from './multipartForm.ts';
import { OAuthNetwork, type NetworkUser } from './oauthNetwork.ts';

export interface Subreddit {
  name: string;
  /** `link_type` of the subreddit's settings: what kinds of posts it takes. */
  allows: 'any' | 'self' | 'link';
  flairRequired?: boolean;
  /** Its post requirements' title limit (`title_text_max_length`); absent: none. */
  titleMax?: number;
  /** Its settings' `allow_images` / `allow_videos` (true unless said). */
  allowImages?: boolean;
  allowVideos?: boolean;
  /** Its post requirements' `body_restriction_policy`. */
  body?: 'required' | 'notAllowed' | 'none';
  /** A private subreddit: its about and requirements are 403 to others. */
  private?: boolean;
  /** Its link flair templates; absent: people may not choose flair there (403). */
  flairs?: { id: string; text: string; modOnly?: boolean }[];
}

export interface StoredPost {
  id: string;
  sr: string;
  author: string;
  kind: 'self' | 'link' | 'image' | 'video';
  title: string;
  text: string;
  url: string | null;
  /** An image's or video's file, and a video's poster, as received at the upload URL. */
  media?: Fetched;
  poster?: Fetched;
  /** Reads of the subreddit's listing still to come before a media post shows in it. */
  unlistedReads: number;
  flair_id: string | null;
  nsfw: boolean;
  spoiler: boolean;
}

type RedditError = [string, string, string];

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
  return true;
};

async function formOf(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return Object.fromEntries(new URLSearchParams(text));
}

export class RedditStandIn extends OAuthNetwork {
  readonly subreddits: Subreddit[] = [];
  readonly posts: StoredPost[] = [];
  /** Every API call, with the User-Agent it named. */
  readonly apiRequests: { method: string; path: string; userAgent: string | undefined }[] = [];
  /** The next this many API calls answer 429, asking to wait this many seconds. */
  throttle = { next: 0, resetSeconds: 1 };
  /** The next this many submits are refused with RATELIMIT, in Reddit's words. */
  submitRateLimited = 0;
  /** Called once a post is made, before the answer: true holds the answer forever (a worker killed meanwhile). */
  holdSubmit: (() => boolean) | undefined;
  /** Each upload leased (POST /api/media/asset.json), by its S3 key; `file` once it was uploaded. */
  readonly uploads = new Map<string, { filepath: string; mimetype: string; policy: string; file?: Fetched; location?: string }>();
  /** How many reads of a subreddit's listing pass before a media post Reddit took shows in it (its processing). */
  mediaListedAfterReads = 0;
  #sequence = 1_000_000;

  constructor(redirectUris: string[], user: NetworkUser) {
    super(redirectUris, {
      paths: { authorize: '/api/v1/authorize', token: '/api/v1/access_token', revoke: '/api/v1/revoke_token' },
      clientAuthentication: 'basic',
      refreshTokens: 'kept',
    });
    this.user = user;
    this.api = (req, res, url) => this.#handle(req, res, url);
  }

  /** The service's settings for this stand-in: Reddit's sign-in and API both here. */
  get env(): Record<string, string> {
    return { REDDIT_CLIENT_ID: this.clientId, REDDIT_CLIENT_SECRET: this.clientSecret, REDDIT_API_BASE_URL: this.url, REDDIT_AUTH_BASE_URL: this.url };
  }

  async #handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    this.apiRequests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, userAgent: req.headers['user-agent'] });
    // S3 takes the form on its policy, not on Reddit's token.
    if (req.method === 'POST' && url.pathname === '/media-upload') return this.#upload(req, res);
    const token = /^bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const user = this.userOf(token);
    if (!user) return send(res, 401, { message: 'Unauthorized', error: 401 });
    if (this.throttle.next > 0) {
      this.throttle.next--;
      const headers = { 'x-ratelimit-used': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(this.throttle.resetSeconds) };
      return send(res, 429, { message: 'Too Many Requests', error: 429 }, headers);
    }
    const scopes = this.scopeOf(token);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /api/v1/me') return send(res, 200, { id: user.id, name: user.username, icon_img: user.profileImageUrl ?? '' });
    if (route === 'POST /api/media/asset.json') {
      if (!scopes.includes('submit')) return send(res, 403, { message: 'Forbidden', error: 403 });
      return this.#lease(res, await formOf(req));
    }
    if (route === 'POST /api/submit') {
      if (!scopes.includes('submit')) return send(res, 403, { message: 'Forbidden', error: 403 });
      return this.#submit(res, user, await formOf(req));
    }
    const newest = /^\/r\/([^/]+)\/new$/.exec(url.pathname);
    if (req.method === 'GET' && newest) {
      const sr = decodeURIComponent(newest[1]!).toLowerCase();
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25));
      const inSubreddit = this.posts.filter((post) => post.sr.toLowerCase() === sr);
      const listed = inSubreddit.filter((post) => post.unlistedReads === 0);
      for (const post of inSubreddit) post.unlistedReads = Math.max(0, post.unlistedReads - 1);
      const children = listed
        .reverse()
        .slice(0, limit)
        .map((post) => ({ kind: 't3', data: thing(post) }));
      return send(res, 200, { kind: 'Listing', data: { after: null, before: null, children } });
    }
    const about = /^\/r\/([^/]+)\/about$/.exec(url.pathname) ?? /^\/api\/v1\/([^/]+)\/post_requirements$/.exec(url.pathname);
    if (req.method === 'GET' && about) {
      const named = decodeURIComponent(about[1]!).toLowerCase();
      const subreddit = this.subreddits.find((candidate) => candidate.name.toLowerCase() === named);
      if (!subreddit) return send(res, 404, { message: 'Not Found', error: 404 });
      if (subreddit.private) return send(res, 403, { message: 'Forbidden', error: 403, reason: 'private' });
      if (url.pathname.endsWith('/about'))
        return send(res, 200, {
          kind: 't5',
          data: {
            display_name: subreddit.name,
            submission_type: subreddit.allows,
            allow_images: subreddit.allowImages ?? true,
            allow_videos: subreddit.allowVideos ?? true,
          },
        });
      return send(res, 200, {
        title_regexes: [],
        body_blacklisted_strings: [],
        title_blacklisted_strings: [],
        body_text_max_length: null,
        title_required_strings: [],
        guidelines_text: null,
        gallery_min_items: null,
        domain_blacklist: [],
        domain_whitelist: [],
        title_text_max_length: subreddit.titleMax ?? null,
        body_restriction_policy: subreddit.body ?? 'none',
        link_restriction_policy: 'none',
        guidelines_display_policy: null,
        body_required_strings: [],
        title_text_min_length: null,
        gallery_captions_requirement: 'none',
        is_flair_required: subreddit.flairRequired ?? false,
        gallery_max_items: null,
        gallery_urls_requirement: 'none',
        body_regex: [],
        link_repost_age: null,
        body_text_min_length: null,
      });
    }
    const flairs = /^\/r\/([^/]+)\/api\/link_flair_v2$/.exec(url.pathname);
    if (req.method === 'GET' && flairs) {
      if (!scopes.includes('flair')) return send(res, 403, { message: 'Forbidden', error: 403 });
      const sr = decodeURIComponent(flairs[1]!).toLowerCase();
      const subreddit = this.subreddits.find((candidate) => candidate.name.toLowerCase() === sr);
      if (!subreddit) return send(res, 404, { message: 'Not Found', error: 404 });
      if (!subreddit.flairs) return send(res, 403, { message: 'Forbidden', error: 403 });
      return send(
        res,
        200,
        subreddit.flairs.map((flair) => ({
          id: flair.id,
          text: flair.text,
          type: 'text',
          text_editable: false,
          mod_only: flair.modOnly ?? false,
          allowable_content: 'all',
          max_emojis: 10,
          background_color: '',
          text_color: 'dark',
          css_class: '',
          richtext: [],
        })),
      );
    }
    if (route === 'GET /api/info') {
      const id = url.searchParams.get('id')?.replace(/^t3_/, '');
      const post = this.posts.find((candidate) => candidate.id === id);
      return send(res, 200, { kind: 'Listing', data: { children: post ? [{ kind: 't3', data: { ...thing(post), ups: 42, num_comments: 5 } }] : [] } });
    }
    return send(res, 404, { message: 'Not Found', error: 404 });
  }

  /** A lease of an upload: S3's form fields under a policy of this upload's own. */
  #lease(res: ServerResponse, form: Record<string, string>): true {
    if (!form.filepath || !form.mimetype) return send(res, 400, { message: 'Bad Request', error: 400 });
    const assetId = `${(this.#sequence++).toString(36)}a`;
    const key = `rte_images/${assetId}`;
    const policy = Buffer.from(JSON.stringify({ key, 'content-type': form.mimetype })).toString('base64');
    this.uploads.set(key, { filepath: form.filepath, mimetype: form.mimetype, policy });
    const fields = [
      { name: 'acl', value: 'private' },
      { name: 'key', value: key },
      { name: 'success_action_status', value: '201' },
      { name: 'Content-Type', value: form.mimetype },
      { name: 'policy', value: policy },
      { name: 'x-amz-signature', value: createHash('sha256').update(policy).digest('hex') },
    ];
    const websocket_url = `wss://ws-${assetId}.wss.redditmedia.com/rte_images/${assetId}`;
    return send(res, 200, { args: { action: `//${new URL(this.url).host}/media-upload`, fields }, asset: { asset_id: assetId, websocket_url } });
  }

  /** S3's form upload of a leased file: 201 with the XML naming its Location. */
  async #upload(req: IncomingMessage, res: ServerResponse): Promise<true> {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(req.headers['content-type']))?.slice(1).find(Boolean);
    if (!boundary) return send(res, 400, 'not a multipart form');
    const form = await streamedForm(req, boundary);
    const upload = form.fields.key ? this.uploads.get(form.fields.key) : undefined;
    if (!upload || form.fields.policy !== upload.policy || form.fields['x-amz-signature'] !== createHash('sha256').update(upload.policy).digest('hex'))
      return send(res, 403, 'AccessDenied: Invalid according to Policy');
    if (!form.file) return send(res, 400, 'MalformedPOSTRequest: no file field');
    const location = `https://reddit-uploaded-media.s3-accelerate.amazonaws.com/${encodeURIComponent(form.fields.key!)}`;
    Object.assign(upload, { file: form.file, location });
    res
      .writeHead(201, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${location}</Location><Bucket>reddit-uploaded-media</Bucket><Key>${form.fields.key}</Key></PostResponse>`,
      );
    return true;
  }

  #submit(res: ServerResponse, user: NetworkUser, form: Record<string, string>): true {
    const refused = (...errors: RedditError[]) => send(res, 200, { json: { errors } });
    const subreddit = this.subreddits.find((candidate) => candidate.name.toLowerCase() === (form.sr ?? '').toLowerCase());
    if (!subreddit) return refused(['SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr']);
    const title = form.title ?? '';
    if (!title) return refused(['NO_TEXT', 'we need something here', 'title']);
    if (title.length > 300) return refused(['TOO_LONG', 'this is too long (max: 300)', 'title']);
    const kind = form.kind;
    if (kind !== 'self' && kind !== 'link' && kind !== 'image' && kind !== 'video') return refused(['INVALID_OPTION', 'that option is not valid', 'kind']);
    const uploaded = (location: string | undefined) => [...this.uploads.values()].find((upload) => upload.location && upload.location === location)?.file;
    const media = kind === 'image' || kind === 'video' ? uploaded(form.url) : undefined;
    const poster = kind === 'video' ? uploaded(form.video_poster_url) : undefined;
    if (kind === 'image' && !media) return refused(['INVALID_IMAGE', 'the image could not be found', 'url']);
    if (kind === 'video' && (!media || !poster)) return refused(['INVALID_VIDEO', 'the video or its poster could not be found', 'url']);
    if (kind === 'link' && subreddit.allows === 'self') return refused(['NO_LINKS', 'that subreddit only allows text posts', 'sr']);
    if (kind === 'self' && subreddit.allows === 'link') return refused(['NO_SELFS', "that subreddit doesn't allow text posts", 'sr']);
    if (kind === 'link' && !form.url) return refused(['NO_URL', 'a url is required', 'url']);
    if (subreddit.flairRequired && !form.flair_id) return refused(['SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair']);
    if (form.flair_id && !subreddit.flairs?.some((flair) => flair.id === form.flair_id))
      return refused(['BAD_FLAIR_TEMPLATE_ID', 'That flair template is not valid.', 'flair']);
    if (this.submitRateLimited > 0) {
      this.submitRateLimited--;
      return refused(['RATELIMIT', 'you are doing that too much. try again in 9 minutes.', 'ratelimit']);
    }
    this.#sequence++;
    const post: StoredPost = {
      id: this.#sequence.toString(36),
      sr: subreddit.name,
      author: user.username,
      kind,
      title,
      text: form.text ?? '',
      url: kind === 'link' ? form.url! : null,
      ...(media ? { media } : {}),
      ...(poster ? { poster } : {}),
      unlistedReads: media ? this.mediaListedAfterReads : 0,
      flair_id: form.flair_id ?? null,
      nsfw: form.nsfw === 'true',
      spoiler: form.spoiler === 'true',
    };
    this.posts.push(post);
    if (this.holdSubmit?.()) return true;
    if (media) {
      const websocket = `wss://ws-${post.id}.wss.redditmedia.com/rte_images/${post.id}`;
      return send(res, 200, {
        json: { errors: [], data: { user_submitted_page: `https://www.reddit.com/user/${user.username}/submitted/`, websocket_url: websocket } },
      });
    }
    const { url, permalink } = thing(post);
    return send(res, 200, {
      json: { errors: [], data: { url: kind === 'self' ? url : `https://www.reddit.com${permalink}`, drafts_count: 0, id: post.id, name: `t3_${post.id}` } },
    });
  }
}

/** A post as Reddit's listings show it (a t3 thing's data). */
function thing(post: StoredPost) {
  const permalink = `/r/${post.sr}/comments/${post.id}/${post.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 50)}/`;
  return {
    id: post.id,
    name: `t3_${post.id}`,
    subreddit: post.sr,
    author: post.author,
    title: post.title,
    selftext: post.text,
    is_self: post.kind === 'self',
    is_video: post.kind === 'video',
    ...(post.kind === 'image' ? { post_hint: 'image' } : {}),
    url:
      post.url ??
      { image: `https://i.redd.it/${post.id}.jpg`, video: `https://v.redd.it/${post.id}` }[post.kind as 'image' | 'video'] ??
      `https://www.reddit.com${permalink}`,
    permalink,
    link_flair_template_id: post.flair_id,
    over_18: post.nsfw,
    spoiler: post.spoiler,
  };
}
