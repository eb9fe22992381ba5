// X's inbox: the replies to the account's posts, found by their conversation, answered as replies.
//   read    GET /2/tweets/search/recent?query=conversation_id:<post> (https://docs.x.com/x-api/posts/search-recent-posts):
//           every post of the thread below the post, newest first, `max_results` up to 100 a page and `meta.next_token`
//           to the next; `since_id` keeps only newer ones (post ids are Snowflakes that grow with time), so the cursor
//           is the newest id seen per post (`meta.newest_id`). Recent search covers the last 7 days only: older posts
//           are not read. Deleted posts are not in search's answers. The account's own posts are not comments.
//   reply   POST /2/tweets {text, reply: {in_reply_to_tweet_id}} (posts.ts, as publishing posts). X takes no
//           idempotency key: a reply step an attempt started without recording its result is looked up among the
//           account's posts newer than the comment (`since_id`: a reply is newer than what it answers) by its text
//           and the post it replies to, and only posted where X has none.
//   limits  recent search per user per 15 minutes by the app's tier (X_API_TIER, tiers.ts); a reply is a post,
//           charged to X_POSTS_PER_DAY (adapter.ts's quota, `costPerReply`).
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { NetworkHttp } from '../http.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import type { Post, User } from './api.ts';
import type { Session } from './media.ts';
import { createPost, findPost, permalink } from './posts.ts';

/** A post as recent search gives it with the fields the inbox asks for. */
interface FoundPost extends Post {
  author_id: string;
  created_at: string;
  conversation_id: string;
}

/** https://docs.x.com/x-api/posts/search-recent-posts (the response). */
interface SearchAnswer {
  data?: FoundPost[];
  includes?: { users?: User[] };
  meta?: { newest_id?: string; next_token?: string; result_count: number };
}

const searchFields = {
  'tweet.fields': 'author_id,created_at,in_reply_to_user_id,referenced_tweets,conversation_id',
  expansions: 'author_id',
  'user.fields': 'name,username,profile_image_url',
};

/** Recent search reaches back 7 days. */
const searchableMs = 7 * 24 * 3600_000;

/** Snowflake ids as numbers: longer is newer, then by digits. */
const newer = (a: string, b: string | undefined) => b === undefined || a.length > b.length || (a.length === b.length && a > b);

export class XInbox implements InboxAdapter {
  readonly readQuota: Quota;
  readonly #http: NetworkHttp;
  readonly #api: string;

  /** `readQuota`: the app's tier's recent-search limit (tiers.ts). */
  constructor(http: NetworkHttp, apiBaseUrl: string, readQuota: Quota) {
    this.#http = http;
    this.#api = apiBaseUrl;
    this.readQuota = readQuota;
  }

  #session(account: ConnectedAccount, signal: AbortSignal): Session {
    return { apiBaseUrl: this.#api, accessToken: tokensOf(account).accessToken, signal };
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const session = this.#session(account, signal);
    const cursor = { ...since };
    const comments: RemoteComment[] = [];
    let calls = 0;
    for (const post of posts.filter((watched) => Date.now() - watched.publishedAt.getTime() < searchableMs)) {
      let nextToken: string | undefined;
      do {
        const page = await this.#search(session, post, since[post.remoteId], nextToken);
        calls++;
        const newest = page.meta?.newest_id;
        if (newest && newer(newest, cursor[post.remoteId])) cursor[post.remoteId] = newest;
        const users = new Map((page.includes?.users ?? []).map((user) => [user.id, user]));
        for (const found of page.data ?? []) {
          if (found.author_id === account.remoteId || found.id === post.remoteId) continue;
          comments.push(commentOf(found, post, users.get(found.author_id)));
        }
        nextToken = page.meta?.next_token;
      } while (nextToken);
    }
    return { comments, cursor, calls };
  }

  #search(session: Session, post: WatchedPost, sinceId: string | undefined, nextToken: string | undefined): Promise<SearchAnswer> {
    const query = new URLSearchParams({
      query: `conversation_id:${post.remoteId}`,
      max_results: '100',
      ...searchFields,
      ...(sinceId ? { since_id: sinceId } : {}),
      ...(nextToken ? { next_token: nextToken } : {}),
    });
    return this.#http
      .send<SearchAnswer>({ method: 'GET', url: `${this.#api}/2/tweets/search/recent?${query}`, accessToken: session.accessToken, signal: session.signal })
      .then(({ body }) => body);
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const session = this.#session(request.account, request.signal);
    const inReplyTo = request.comment.remoteId;
    const id = await new Steps(request.checkpoint).once('reply', () => createPost(this.#http, session, { text: request.text, mediaIds: [], inReplyTo }), {
      // X has no idempotency key: an attempt that crashed after X's answer left the reply among the account's posts.
      ifInterrupted: () =>
        findPost(this.#http, session, { authorId: accountId(request.account), text: request.text, inReplyTo, after: { since_id: inReplyTo } }),
    });
    return { remoteId: id, remoteUrl: permalink(request.account.username, id) };
  }
}

function commentOf(found: FoundPost, post: WatchedPost, author: User | undefined): RemoteComment {
  const parent = found.referenced_tweets?.find((reference) => reference.type === 'replied_to')?.id ?? post.remoteId;
  const username = author?.username ?? found.author_id;
  return {
    remoteId: found.id,
    remoteUrl: permalink(username, found.id),
    postRemoteId: post.remoteId,
    parentRemoteId: parent,
    kind: parent === post.remoteId ? 'comment' : 'reply',
    author: { displayName: author?.name || username, username, avatarUrl: author?.profile_image_url ?? null },
    text: found.text,
    createdAt: new Date(found.created_at),
  };
}

function accountId(account: ConnectedAccount): string {
  if (!account.remoteId) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The X account has no user id: connect it again.', false);
  return account.remoteId;
}
