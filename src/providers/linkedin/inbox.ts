// LinkedIn's inbox: the comments people leave on a page's posts, and the comments nested under them, read and
// answered through the Comments API (comments.ts,
// https://learn.microsoft.com/linkedin/marketing/community-management/shares/comments-api).
//   who     A page's (an organization's) comments need r_organization_social, which the Community Management API
//           provides (LINKEDIN_PRODUCTS=community-management, products.ts). A member's need r_member_social, which
//           LinkedIn calls restricted and grants to select developers only, and which neither product set has: a
//           member's poll is skipped with that reason (`unavailableFor`), before any call or charge
//           (docs/networks/linkedin.md).
//   read    Per post, its first-level comments page by page, then the comments nested under each one that has
//           any (`commentsSummary`; every one where LinkedIn leaves it out). LinkedIn's comments nest one level:
//           a reply to a nested comment is nested under the same first-level comment. The cursor is the newest
//           `created.time` seen per post; a poll keeps what is that new or newer (storing dedupes by the comment's
//           URN). The account's own comments are not items. A deleted comment is no longer listed by LinkedIn
//           (its "Delete a Comment"), so it is not collected; one collected before stays, and an answer to it fails
//           with LinkedIn's reason.
//   reply   POST under the first-level comment {actor: the page, object: the post, parentComment}. LinkedIn takes
//           no idempotency key: an attempt that started the call and never recorded the answer (a crash, a lost
//           answer) first looks for the account's comment with the same text under that comment, and posts only
//           where there is none (the same text answered there before is taken for it).
//   limits  Daily calls per member and per app, reset at midnight UTC, 429 past them; LinkedIn publishes no
//           figures (https://learn.microsoft.com/linkedin/shared/api-guide/concepts/rate-limits): see linkedinReadQuota.
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { CommentPage, InboxAdapter, InboxCursor, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import type { Quota } from '../kit/quotas.ts';
import { Steps } from '../kit/steps.ts';
import { apiOptions } from '../kit/oauthAdapter.ts';
import type { OAuthAdapterDependencies } from '../network.ts';
import { LinkedInApi } from './api.ts';
import { commentsUnder, commentUrl, type LinkedInComment, lookUp, ownComment, postComment, urnOf } from './comments.ts';
import { sessionOf, type Session } from './media.ts';
import type { LinkedInProducts } from './products.ts';

/**
 * LinkedIn counts calls per member a day and shows each app its figures only in its Developer Portal: polls are kept
 * to half of an assumed 1,000 a day per account, so a page's publishing keeps the rest.
 */
export const linkedinReadQuota: Quota = {
  name: 'LinkedIn: calls per member a day (unpublished; 1,000 assumed)',
  scope: 'account',
  windowSeconds: 86_400,
  limit: 1000,
  costPerPublish: 1,
};

const memberInboxRefused =
  "LinkedIn lets an app read a member's comments only with r_member_social, a restricted permission it grants to select developers: this member's comments are not collected. A page's are, with the Community Management API (LINKEDIN_PRODUCTS=community-management).";
const pagesNeedCommunityManagement =
  "LinkedIn lets an app read a page's comments with r_organization_social, which only the Community Management API provides: set LINKEDIN_PRODUCTS=community-management for an app that has it, and connect the page again.";

const isPage = (account: Pick<ConnectedAccount, 'remoteId'>) => account.remoteId?.startsWith('urn:li:organization:') === true;

export class LinkedInInbox implements InboxAdapter {
  readonly readQuota = linkedinReadQuota;
  readonly #api: LinkedInApi;
  readonly #products: LinkedInProducts;

  constructor(api: LinkedInApi, products: LinkedInProducts) {
    this.#api = api;
    this.#products = products;
  }

  /** A member's comments never (r_member_social), a page's with the Community Management API. */
  unavailableFor(account: Pick<ConnectedAccount, 'remoteId'>): string | null {
    if (!isPage(account)) return memberInboxRefused;
    return this.#products === 'community-management' ? null : pagesNeedCommunityManagement;
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const unavailable = this.unavailableFor(account);
    if (unavailable) throw new ProviderError('PROVIDER_REJECTED', unavailable, false);
    const session = sessionOf(this.#api, account, signal);
    const cursor: InboxCursor = { ...since };
    const comments: RemoteComment[] = [];
    let calls = 0;
    for (const post of posts) {
      const read = await this.#threadsOf(session, post);
      calls += read.calls;
      const seen = Number(since[post.remoteId] ?? 0);
      for (const { comment, thread } of read.comments) {
        const time = comment.created?.time ?? 0;
        if (time > Number(cursor[post.remoteId] ?? 0)) cursor[post.remoteId] = String(time);
        const urn = urnOf(comment);
        if (!urn || time < seen || comment.actor === session.author) continue;
        comments.push(itemOf(post, comment, urn, thread));
      }
    }
    return { comments, cursor, calls };
  }

  /** The post's first-level comments and those nested under them, each with the first-level comment it belongs to. */
  async #threadsOf(session: Session, post: WatchedPost) {
    const firstLevel = await commentsUnder(session, post.remoteId);
    let calls = firstLevel.calls;
    const comments: { comment: LinkedInComment; thread: string }[] = [];
    for (const comment of firstLevel.comments) {
      const thread = urnOf(comment);
      if (!thread) continue;
      comments.push({ comment, thread });
      if (!hasNested(comment)) continue;
      const nested = await commentsUnder(session, thread);
      calls += nested.calls;
      comments.push(...nested.comments.map((reply) => ({ comment: reply, thread })));
    }
    return { comments, calls };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const session = sessionOf(this.#api, request.account, request.signal);
    const post = request.comment.postRemoteId;
    const thread = request.comment.reference.thread ?? request.comment.remoteId;
    const urn = await new Steps(request.checkpoint).once('reply', () => postComment(session, { object: post, text: request.text, parentComment: thread }), {
      ifInterrupted: () =>
        lookUp(
          () => ownComment(session, thread, request.text),
          (reason) =>
            `An earlier attempt may have posted this answer, and LinkedIn does not let this app read the comment's answers to check (${reason}). Look at the post and answer there if it is missing.`,
        ),
    });
    return { remoteId: urn, remoteUrl: commentUrl(post, urn) };
  }
}

/** Whether comments are nested under it: as its summary says, or maybe where LinkedIn gave none. */
const hasNested = (comment: LinkedInComment) => {
  const summary = comment.commentsSummary;
  return summary === undefined || (summary.aggregatedTotalComments ?? summary.totalFirstLevelComments ?? 1) > 0;
};

/**
 * A comment as an inbox item. LinkedIn names its author by URN only (a member's name is the Profile API's, for the
 * member themself or approved partners), so the URN is both their name and username here.
 */
function itemOf(post: WatchedPost, comment: LinkedInComment, urn: string, thread: string): RemoteComment {
  const author = comment.actor ?? 'urn:li:person:unknown';
  return {
    remoteId: urn,
    remoteUrl: commentUrl(post.remoteId, urn),
    postRemoteId: post.remoteId,
    parentRemoteId: comment.parentComment ?? post.remoteId,
    kind: comment.parentComment ? 'reply' : 'comment',
    author: { displayName: author, username: author, avatarUrl: null },
    text: comment.message?.text ?? '',
    createdAt: new Date(comment.created?.time ?? Date.now()),
    reference: { thread },
  };
}

export function createLinkedInInbox({ app, redirectUri, config, allowedHosts }: OAuthAdapterDependencies): LinkedInInbox {
  const api = new LinkedInApi({ ...apiOptions({ app, redirectUri, timeoutMs: config.networkTimeoutMs, allowedHosts }), version: config.linkedinVersion });
  return new LinkedInInbox(api, config.linkedinProducts);
}
