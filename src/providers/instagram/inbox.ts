// An Instagram account's inbox, for either way of connecting (login.ts): the same edges at graph.facebook.com (the
// Page's token, instagram_manage_comments) and graph.instagram.com (the account's token,
// instagram_business_manage_comments), https://developers.facebook.com/docs/instagram-platform/comment-moderation:
//   read    GET /{ig-media-id}/comments (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments):
//           the top-level comments, cursor-paged, each with its replies as the nested `replies{…}` edge, whose further
//           pages are GET /{ig-comment-id}/replies (…/reference/ig-comment/replies). The order is not documented and a
//           new reply may come under an old comment, so every page is read and a poll keeps what is at least as new as
//           the newest `timestamp` the last one saw (the cursor, per media). The account's own comments (its
//           username, or `from` it) are not items; hidden ones (`hidden`, …/reference/ig-comment) cannot be answered
//           ("You cannot reply to hidden comments"): left out; deleted ones are no longer listed.
//   reply   POST /{ig-comment-id}/replies {message} (../meta/comments.ts: once, an interrupted answer looked for among
//           the account's under the comment first). Only top-level comments take replies ("replies to a reply will be
//           added to the top-level comment"): an answer to a reply goes to its `parent_id` (`reference.thread`).
//   limits  200 calls per account per hour (https://developers.facebook.com/docs/graph-api/overview/rate-limiting/,
//           the Instagram Platform's Business Use Case limit per account; Meta scales it with impressions, 200 is what
//           an account of little reach gets), the read quota. Throttling answers are Meta's codes (../meta/graph.ts).
// Instagram comments have no page of their own: an item links to nowhere, an answer to the media's permalink.
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest } from '../inbox.ts';
import type { Quota } from '../kit/quotas.ts';
import { idAndTokenOf } from '../meta/adapter.ts';
import { NewestSeen, replyOnce } from '../meta/comments.ts';
import { pagesOf, type Paged } from '../meta/graph.ts';
import { graphAt, type GraphSettings } from '../meta/login.ts';
import { graphOf, isGiven, type InstagramApps, type InstagramGraphs } from './adapter.ts';
import { connectionMethods } from './login.ts';
import { instagramRules } from './network.ts';

/** https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment (the fields asked). */
interface IgComment {
  id: string;
  text?: string;
  timestamp: string;
  username?: string;
  from?: { id: string; username?: string };
  hidden?: boolean;
  parent_id?: string;
  replies?: Paged<IgComment>;
}

const replyFields = 'id,text,timestamp,username,from,hidden,parent_id';
const fields = `${replyFields},replies{${replyFields}}`;

export const instagramReadQuota: Quota = {
  name: 'Instagram: 200 API calls per account per hour',
  scope: 'account',
  windowSeconds: 3_600,
  limit: 200,
  costPerPublish: 1,
};

export class InstagramInbox implements InboxAdapter {
  readonly readQuota = instagramReadQuota;
  readonly #graphs: InstagramGraphs;

  constructor(graphs: InstagramGraphs) {
    this.#graphs = graphs;
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const graph = graphOf(this.#graphs, account);
    const { id: user, token } = this.#idAndToken(account);
    const seen = new NewestSeen(since);
    const comments: RemoteComment[] = [];
    let calls = 0;
    for (const post of posts) {
      const keep = (comment: IgComment) => {
        const own = comment.from?.id === user || comment.username === account.username;
        if (seen.isNew(post.remoteId, comment.timestamp) && !own && !comment.hidden) comments.push(remoteComment(comment, post.remoteId));
      };
      for await (const batch of pagesOf<IgComment>(graph, `/${post.remoteId}/comments`, token, { fields, limit: '50' }, signal)) {
        calls++;
        for (const comment of batch) {
          keep(comment);
          for (const reply of comment.replies?.data ?? []) keep(reply);
          const after = comment.replies?.paging?.next ? comment.replies.paging.cursors?.after : undefined;
          if (!after) continue;
          for await (const replies of pagesOf<IgComment>(graph, `/${comment.id}/replies`, token, { fields: replyFields, limit: '50', after }, signal)) {
            calls++;
            for (const reply of replies) keep(reply);
          }
        }
      }
    }
    return { comments, cursor: seen.cursor, calls };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const graph = graphOf(this.#graphs, request.account);
    const { id: user, token } = this.#idAndToken(request.account);
    const { reference, remoteId, postRemoteId } = request.comment;
    const item = async (id: string): Promise<PublishedItem> => {
      const { permalink } = await graph.get<{ permalink?: string }>(`/${postRemoteId}`, token, { fields: 'permalink' }, request.signal);
      return { remoteId: id, remoteUrl: permalink ?? '' };
    };
    return replyOnce({ graph, author: user, token, thread: reference.thread ?? remoteId, edge: 'replies', textField: 'text', item }, request);
  }

  #idAndToken(account: ConnectedAccount) {
    return idAndTokenOf(account, instagramRules.displayName);
  }
}

function remoteComment(comment: IgComment, media: string): RemoteComment {
  const username = comment.username ?? comment.from?.username ?? comment.from?.id ?? '';
  return {
    remoteId: comment.id,
    remoteUrl: null,
    postRemoteId: media,
    parentRemoteId: comment.parent_id ?? media,
    kind: comment.parent_id ? 'reply' : 'comment',
    author: { displayName: username, username, avatarUrl: null },
    text: comment.text ?? '',
    createdAt: new Date(Date.parse(comment.timestamp)),
    ...(comment.parent_id ? { reference: { thread: comment.parent_id } } : {}),
  };
}

/** The inbox at the host of each way of connecting the operator set up; null where neither. */
export function createInstagramInbox({ apps, config }: { apps: InstagramApps; config: GraphSettings }): InstagramInbox | null {
  const graphs: InstagramGraphs = {};
  for (const connection of connectionMethods) {
    const app = apps[connection];
    if (isGiven(app)) graphs[connection] = graphAt(app, config, 'Instagram');
  }
  return graphs.facebook_login || graphs.instagram_login ? new InstagramInbox(graphs) : null;
}
