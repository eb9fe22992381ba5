// YouTube's inbox: the comment threads on the channel's videos, and answers as replies in those threads.
//   read    commentThreads.list (https://developers.google.com/youtube/v3/docs/commentThreads/list, 1 unit a call)
//           GET /youtube/v3/commentThreads?part=snippet,replies&videoId=…&order=time&maxResults=100&textFormat=plainText,
//           newest thread first, page after page (nextPageToken) while a page still reaches threads newer than the
//           newest the last poll saw (the cursor, per video): the first page is always read, so a comment the
//           channel published from review (moderationStatus heldForReview, which lists leave out until then) is
//           collected once it is published, if it is among the newest hundred. A thread embeds "a limited number"
//           of its replies (https://developers.google.com/youtube/v3/docs/commentThreads#replies); where
//           snippet.totalReplyCount is more, and not what the poll that read them all counted, comments.list
//           (https://developers.google.com/youtube/v3/docs/comments/list, parentId, 1 unit a page) reads the rest.
//           The text is textDisplay as plain text: textOriginal is given only to the comment's author
//           (https://developers.google.com/youtube/v3/docs/comments#snippet.textOriginal). The channel's own
//           comments (authorChannelId.value, its id) are not items. A video whose comments are off (403
//           commentsDisabled) or that is gone (404 videoNotFound) is passed over. A deleted comment is gone from the lists; one
//           already collected stays, and answering it is refused (parentCommentNotFound).
//   reply   comments.insert (https://developers.google.com/youtube/v3/docs/comments/insert, 50 units) POST
//           /youtube/v3/comments?part=snippet {snippet: {parentId, textOriginal}}. YouTube nests one level: a reply
//           answers the thread's top-level comment, also when it answers a reply in it (as YouTube's own reply button
//           does). Google takes no idempotency key: an attempt that stopped after sending (a crash before our record)
//           looks for the channel's reply with that text under the thread (comments.list) before sending again.
//   limits  Google's quota calculator (https://developers.google.com/youtube/v3/determine_quota_cost): every call
//           but videos.insert is charged to the project's daily units (YOUTUBE_DAILY_QUOTA_UNITS, quotas.ts), the
//           counter uploads are charged to: a poll may fill at most pollSharePercent of it; an answer costs 50 units.
//   scope   every comment method needs youtube.force-ssl (comments.ts), which connecting asks for.
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { OAuthAdapterDependencies } from '../network.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import { apiOptions } from '../kit/oauthAdapter.ts';
import { tokensOf } from '../kit/oauthLink.ts';
import { Steps } from '../kit/steps.ts';
import { YouTubeApi, YouTubeRefusal } from './api.ts';
import { commentItem, requireCommentScope, type YouTubeComment, type YouTubeCommentThread, type YouTubeListPage } from './comments.ts';
import { youtubeUnitsQuota, type YouTubeQuotaOptions } from './quotas.ts';

/** commentThreads.list's refusals that mean the video has no comments to read (its errors, in the reference). */
const unreadable = new Set(['commentsDisabled', 'videoNotFound']);

/** The most a list call may answer (maxResults). */
const pageSize = 100;

/** Cursor keys: the newest thread seen on a video, and the replies a thread had when comments.list read them all. */
const newestKey = (videoId: string) => `video:${videoId}`;
const repliesKey = (threadId: string) => `replies:${threadId}`;

export class YouTubeInbox implements InboxAdapter {
  readonly readQuota;
  readonly #api: YouTubeApi;

  constructor(api: YouTubeApi, quota: YouTubeQuotaOptions) {
    this.#api = api;
    this.readQuota = youtubeUnitsQuota(quota);
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const reader = new Reader(this.#api, account, signal);
    // Only the keys of what this poll saw are kept: the cursor does not grow with videos past the lookback.
    const cursor: Record<string, string> = {};
    const comments: RemoteComment[] = [];
    for (const post of posts) {
      const seen = since[newestKey(post.remoteId)];
      let newest = seen;
      for await (const thread of reader.threads(post.remoteId, seen)) {
        const top = thread.snippet?.topLevelComment;
        if (!thread.id || !top?.snippet) continue;
        const publishedAt = top.snippet.publishedAt ?? '';
        if (newest === undefined || publishedAt > newest) newest = publishedAt;
        comments.push(...reader.others([top], post, thread.id));
        const embedded = thread.replies?.comments ?? [];
        const total = thread.snippet?.totalReplyCount ?? embedded.length;
        if (total > embedded.length) {
          cursor[repliesKey(thread.id)] = String(total);
          if (since[repliesKey(thread.id)] !== String(total)) {
            comments.push(...reader.others(await reader.replies(thread.id), post, thread.id));
            continue;
          }
        }
        comments.push(...reader.others(embedded, post, thread.id));
      }
      if (newest !== undefined) cursor[newestKey(post.remoteId)] = newest;
    }
    return { comments, cursor, calls: reader.calls };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const { account, comment, text, signal } = request;
    const tokens = requireCommentScope(tokensOf(account));
    // Replies nest one level at YouTube: an answer to a reply goes under the same top-level comment.
    const parentId = comment.reference.threadId ?? comment.remoteId;
    const reader = new Reader(this.#api, account, signal);
    return new Steps(request.checkpoint).once(
      'reply',
      async () => {
        const { body } = await this.#api.send<YouTubeComment>({
          method: 'POST',
          path: '/youtube/v3/comments?part=snippet',
          accessToken: tokens.accessToken,
          body: { json: { snippet: { parentId, textOriginal: text } } },
          signal,
        });
        if (!body?.id) throw new ProviderError('PROVIDER_UNAVAILABLE', 'YouTube took the reply without naming it.', false);
        return commentItem(comment.postRemoteId, body.id);
      },
      {
        // No idempotency key at Google: the channel's reply with this text under the thread is the one the
        // interrupted attempt made (the author is given textOriginal, the text exactly as sent).
        ifInterrupted: async () => {
          const earlier = (await reader.replies(parentId)).find(
            (reply) => reply.snippet?.authorChannelId?.value === account.remoteId && reply.snippet?.textOriginal === text,
          );
          return earlier?.id ? commentItem(comment.postRemoteId, earlier.id) : null;
        },
      },
    );
  }
}

/** One poll's (or reply's) reads, counted. */
class Reader {
  calls = 0;
  readonly #api: YouTubeApi;
  readonly #account: ConnectedAccount;
  readonly #signal: AbortSignal;

  constructor(api: YouTubeApi, account: ConnectedAccount, signal: AbortSignal) {
    this.#api = api;
    this.#account = account;
    this.#signal = signal;
  }

  /** The video's threads, newest first: the first page, and the next while they may hold threads newer than `seen`. */
  async *threads(videoId: string, seen: string | undefined): AsyncGenerator<YouTubeCommentThread> {
    const query = `part=snippet,replies&videoId=${encodeURIComponent(videoId)}&order=time&maxResults=${pageSize}&textFormat=plainText`;
    let token: string | undefined;
    do {
      const page: YouTubeListPage<YouTubeCommentThread> = await this.#page<YouTubeCommentThread>(`/youtube/v3/commentThreads?${query}`, token).catch(
        (error: unknown) => {
          // A video whose comments are off, or that is gone, has nothing to collect; the others are still read.
          if (error instanceof YouTubeRefusal && error.reasons.some((reason) => unreadable.has(reason))) return {};
          throw error;
        },
      );
      yield* page.items ?? [];
      const oldest = page.items?.at(-1)?.snippet?.topLevelComment?.snippet?.publishedAt;
      token = seen !== undefined && oldest !== undefined && oldest <= seen ? undefined : page.nextPageToken;
    } while (token);
  }

  /** Every reply in the thread, oldest first (comments.list by parentId, page after page). */
  async replies(threadId: string): Promise<YouTubeComment[]> {
    const query = `part=snippet&parentId=${encodeURIComponent(threadId)}&maxResults=${pageSize}&textFormat=plainText`;
    const replies: YouTubeComment[] = [];
    let token: string | undefined;
    do {
      const page = await this.#page<YouTubeComment>(`/youtube/v3/comments?${query}`, token);
      replies.push(...(page.items ?? []));
      token = page.nextPageToken;
    } while (token);
    return replies;
  }

  /** The comments among `found` that are not the channel's own, as items of `post`'s thread `threadId`. */
  others(found: YouTubeComment[], post: WatchedPost, threadId: string): RemoteComment[] {
    return found.flatMap((comment) => {
      const snippet = comment.snippet;
      if (!comment.id || !snippet || snippet.authorChannelId?.value === this.#account.remoteId) return [];
      const topLevel = comment.id === threadId;
      const displayName = snippet.authorDisplayName || snippet.authorChannelId?.value || 'YouTube user';
      return [
        {
          remoteId: comment.id,
          remoteUrl: commentItem(post.remoteId, comment.id).remoteUrl,
          postRemoteId: post.remoteId,
          parentRemoteId: topLevel ? post.remoteId : (snippet.parentId ?? threadId),
          kind: topLevel ? 'comment' : 'reply',
          author: { displayName, username: handleOf(snippet.authorChannelUrl) ?? displayName, avatarUrl: snippet.authorProfileImageUrl ?? null },
          text: snippet.textDisplay ?? snippet.textOriginal ?? '',
          createdAt: new Date(snippet.publishedAt ?? Date.now()),
          reference: { threadId },
        },
      ];
    });
  }

  async #page<T>(path: string, token: string | undefined): Promise<YouTubeListPage<T>> {
    this.calls++;
    const { body } = await this.#api.send<YouTubeListPage<T>>({
      method: 'GET',
      path: token ? `${path}&pageToken=${encodeURIComponent(token)}` : path,
      accessToken: tokensOf(this.#account).accessToken,
      signal: this.#signal,
    });
    return body ?? {};
  }
}

/** The channel's handle from its URL (http://www.youtube.com/@handle); none for a /channel/UC… URL. */
function handleOf(channelUrl: string | undefined): string | undefined {
  return channelUrl ? /\/(@[^/?#]+)/.exec(channelUrl)?.[1] : undefined;
}

export function createYouTubeInbox({ app, config, allowedHosts, redirectUri }: OAuthAdapterDependencies): YouTubeInbox {
  const api = new YouTubeApi(apiOptions({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts }));
  return new YouTubeInbox(api, {
    dailyQuotaUnits: config.youtubeDailyQuotaUnits,
    dailyUploads: config.youtubeDailyUploads,
    workspaceShare: config.appQuotaWorkspaceShare,
  });
}
