// A Facebook Page's inbox: the comments people leave on its posts, and their replies, answered as the Page.
//   read    GET /{page-post-id}/comments (https://developers.facebook.com/docs/graph-api/reference/object/comments)
//           with `filter=stream` (replies too, each with its `parent`) and `order=reverse_chronological`, cursor-paged
//           (`paging.cursors.after` while there is a `next`). Newest first, so a poll pages only down to the newest
//           `created_time` the last one saw (the cursor, per post) and stops there. The Page's own comments (`from` the
//           Page) are not items; hidden ones (`is_hidden`, https://developers.facebook.com/docs/graph-api/reference/comment)
//           were hidden by the Page: left out; deleted ones are no longer listed.
//   reply   POST /{comment-id}/comments {message} with the Page token (pages_manage_engagement): the Page is the author
//           (../meta/comments.ts: once, an interrupted answer looked for among the Page's under the comment first).
//           Facebook threads comments two levels deep, so an answer to a reply goes under the reply's top-level
//           comment (its `parent`, kept as the item's `reference.thread`).
//   limits  Page tokens are counted in the Pages Business Use Case limit, 4,800 calls per 24 hours times the Page's
//           engaged users (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/): its least, 4,800,
//           is the read quota. Throttling answers are Meta's codes (../meta/graph.ts).
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import type { OAuthAdapterDependencies } from '../network.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import type { Quota } from '../kit/quotas.ts';
import { idAndTokenOf } from '../meta/adapter.ts';
import { NewestSeen, replyOnce } from '../meta/comments.ts';
import { pagesOf, type Graph } from '../meta/graph.ts';
import { graphAt } from '../meta/login.ts';
import { facebookRules } from './network.ts';

/** https://developers.facebook.com/docs/graph-api/reference/comment (the fields asked). */
interface FacebookComment {
  id: string;
  message?: string;
  created_time: string;
  from?: { id: string; name?: string };
  parent?: { id: string };
  permalink_url?: string;
  is_hidden?: boolean;
}

const fields = 'id,from,message,created_time,parent{id},permalink_url,is_hidden';

export const facebookReadQuota: Quota = {
  name: 'Facebook: 4,800 Pages API calls per Page per 24 hours (the least of its Business Use Case limit)',
  scope: 'account',
  windowSeconds: 86_400,
  limit: 4_800,
  costPerPublish: 1,
};

export class FacebookInbox implements InboxAdapter {
  readonly readQuota = facebookReadQuota;
  readonly #graph: Graph;

  constructor(graph: Graph) {
    this.#graph = graph;
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const { id: page, token } = this.#idAndToken(account);
    const seen = new NewestSeen(since);
    const comments: RemoteComment[] = [];
    let calls = 0;
    for (const post of posts) {
      const params = { fields, filter: 'stream', order: 'reverse_chronological', limit: '100' };
      for await (const batch of pagesOf<FacebookComment>(this.#graph, `/${post.remoteId}/comments`, token, params, signal)) {
        calls++;
        const fresh = batch.filter((comment) => seen.isNew(post.remoteId, comment.created_time));
        for (const comment of fresh) if (comment.from?.id !== page && !comment.is_hidden) comments.push(remoteComment(comment, post));
        // Newest first: the rest is older than what the last poll saw.
        if (fresh.length < batch.length) break;
      }
    }
    return { comments, cursor: seen.cursor, calls };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const { id: page, token } = this.#idAndToken(request.account);
    const { reference, remoteId } = request.comment;
    const item = async (id: string): Promise<PublishedItem> => {
      const { permalink_url } = await this.#graph.get<{ permalink_url?: string }>(`/${id}`, token, { fields: 'permalink_url' }, request.signal);
      return { remoteId: id, remoteUrl: permalink_url ?? '' };
    };
    const thread = reference.thread ?? remoteId;
    return replyOnce({ graph: this.#graph, author: page, token, thread, edge: 'comments', textField: 'message', item }, request);
  }

  #idAndToken(account: ConnectedAccount) {
    return idAndTokenOf(account, facebookRules.displayName);
  }
}

function remoteComment(comment: FacebookComment, post: WatchedPost): RemoteComment {
  // People are named, not handled, on Facebook: their (Page-scoped) id stands for the username.
  const name = comment.from?.name || 'Facebook user';
  return {
    remoteId: comment.id,
    remoteUrl: comment.permalink_url ?? null,
    postRemoteId: post.remoteId,
    parentRemoteId: comment.parent?.id ?? post.remoteId,
    kind: comment.parent ? 'reply' : 'comment',
    author: { displayName: name, username: comment.from?.id ?? name, avatarUrl: null },
    text: comment.message ?? '',
    createdAt: new Date(Date.parse(comment.created_time)),
    ...(comment.parent ? { reference: { thread: comment.parent.id } } : {}),
  };
}

export function createFacebookInbox({ app, config }: OAuthAdapterDependencies): FacebookInbox {
  return new FacebookInbox(graphAt(app, config, 'Facebook'));
}
