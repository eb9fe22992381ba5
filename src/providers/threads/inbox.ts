// Threads' inbox: the replies people leave under the profile's posts, read from each post's conversation, answered as
// replies of the profile.
//   read    GET /{threads-media-id}/conversation (Reply Management reference,
//           https://developers.facebook.com/documentation/threads/reference/reply-management; "Retrieve Replies and
//           Conversations", https://developers.facebook.com/docs/threads/retrieve-and-manage-replies/replies-and-conversations):
//           every reply below the post whatever its depth, newest first (`reverse`, default true), in pages of Graph's
//           cursors (`paging.cursors.after` while `paging.next` is there). The cursor is the newest `timestamp` seen per
//           post, and a poll pages back until it reaches it; timestamps are to the second, so the replies of that second
//           are read again and stored once (by their id). Needs threads_read_replies ("Required for making GET calls
//           to reply endpoints").
//   hidden  `hide_status`: NOT_HUSHED and UNHUSHED replies are shown at Threads; a HIDDEN one (the profile hid it with
//           manage_reply, which hides its nested replies too) or COVERED one (Threads covers it) is not an item. A
//           deleted reply is no longer listed, and a reply to it is refused by Threads (the comment does not exist).
//   own     the profile's own replies (its thread's parts, its answers) carry its username: never items.
//   reply   a TEXT container with `reply_to_id` = the comment, then threads_publish (Create Replies,
//           https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies), through
//           the adapter's own steps (adapter.ts `publishedPart`): Threads takes no idempotency key, so a crash between
//           threads_publish and our record is looked up (the container PUBLISHED, then the profile's newest reply with
//           the text) and never answers twice; a container still IN_PROGRESS ends the attempt transiently and the next
//           resumes from that container. Needs threads_manage_replies; counted in the 1,000 API-published replies a
//           day (the adapter's quotas).
//   limits  4,800 calls × the profile's impressions in 24 hours, impressions counted as at least 10, per app and
//           profile (Overview, Rate Limiting: https://developers.facebook.com/docs/threads/overview#rate-limiting).
import type { PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import { grantedScopes, tokensOf } from '../kit/oauthLink.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { containerCheckAfterMs } from '../meta/containers.ts';
import type { Graph } from '../meta/graph.ts';
import { publishedPart, withPermissionAdvice } from './adapter.ts';

/** A reply as the conversation edge gives it (the fields asked for). */
interface ConversationReply {
  id: string;
  text?: string;
  /** Only for public profiles and the profile itself. */
  username?: string;
  permalink?: string;
  timestamp: string;
  replied_to?: { id: string };
  hide_status?: string;
  profile_picture_url?: string;
}

interface ConversationPage {
  data?: ConversationReply[];
  paging?: { cursors?: { after?: string }; next?: string };
}

const fields = 'id,text,username,permalink,timestamp,replied_to,hide_status,profile_picture_url';
const shownAtThreads = new Set(['NOT_HUSHED', 'UNHUSHED']);

/** The least the formula allows: 4,800 × 10 impressions. */
const threadsReadQuota: Quota = {
  name: 'Threads: 4,800 API calls × impressions (at least 10) per 24 hours',
  scope: 'account',
  windowSeconds: 86_400,
  limit: 48_000,
  costPerPublish: 1,
};

export class ThreadsInbox implements InboxAdapter {
  readonly readQuota = threadsReadQuota;
  readonly #graph: Graph;

  constructor(graph: Graph) {
    this.#graph = graph;
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const token = tokensOf(account).accessToken;
    const cursor = { ...since };
    const comments: RemoteComment[] = [];
    let calls = 0;
    const granted = grantedScopes(tokensOf(account));
    for (const post of posts) {
      const seen = since[post.remoteId] === undefined ? undefined : Date.parse(since[post.remoteId]!);
      let after: string | undefined;
      do {
        const page = await this.#graph.get<ConversationPage>(`/${post.remoteId}/conversation`, token, { fields, after }, signal).catch((error: unknown) => {
          throw withPermissionAdvice(error, granted, 'threads_read_replies', 'reading the replies to a post');
        });
        calls++;
        let reachedSeen = false;
        for (const reply of page.data ?? []) {
          const at = Date.parse(reply.timestamp);
          if (seen !== undefined && at < seen) {
            reachedSeen = true;
            break;
          }
          const newest = cursor[post.remoteId];
          if (newest === undefined || at > Date.parse(newest)) cursor[post.remoteId] = new Date(at).toISOString();
          if (reply.username === account.username || !shownAtThreads.has(reply.hide_status ?? 'NOT_HUSHED')) continue;
          comments.push(commentOf(post, reply, at));
        }
        after = reachedSeen || !page.paging?.next ? undefined : page.paging.cursors?.after;
      } while (after);
    }
    return { comments, cursor, calls };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const { account, signal } = request;
    if (!account.remoteId) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The Threads account has no id at Meta: connect it again.', false);
    const publishing = { graph: this.#graph, user: account.remoteId, token: tokensOf(account).accessToken, signal, steps: new Steps(request.checkpoint) };
    const item = await publishedPart(publishing, 'reply:', { caption: request.text, media: [] }, { reply_to_id: request.comment.remoteId }).catch(
      (error: unknown) => {
        throw withPermissionAdvice(error, grantedScopes(tokensOf(account)), 'threads_manage_replies', 'replies');
      },
    );
    if (!item)
      throw new ProviderError('PROVIDER_UNAVAILABLE', 'Threads is still processing the reply; it is published once that is done.', true, {
        retryAfterMs: containerCheckAfterMs,
      });
    return item;
  }
}

function commentOf(post: WatchedPost, reply: ConversationReply, at: number): RemoteComment {
  const parent = reply.replied_to?.id ?? post.remoteId;
  return {
    remoteId: reply.id,
    remoteUrl: reply.permalink ?? null,
    postRemoteId: post.remoteId,
    parentRemoteId: parent,
    kind: parent === post.remoteId ? 'comment' : 'reply',
    author: { displayName: reply.username ?? '', username: reply.username ?? '', avatarUrl: reply.profile_picture_url ?? null },
    text: reply.text ?? '',
    createdAt: new Date(at),
  };
}
