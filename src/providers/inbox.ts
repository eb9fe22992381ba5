// What a network offers the inbox (comments, replies and mentions on the account's published posts, and answering
// them), beside its ProviderAdapter: each network's implementation is src/providers/<network>/inbox.ts, which its
// declaration (network.ts, `inbox`) loads; src/inbox/ collects and answers through it. A network without one has no
// inbox, and GET /v1/providers says why.
import type { ConnectedAccount, PublishedItem } from './adapter.ts';
import type { Checkpoint } from './kit/steps.ts';
import type { Quota } from './kit/quotas.ts';

/** One of the account's published posts whose comments are read. */
export interface WatchedPost {
  /** post_target.id */
  targetId: string;
  remoteId: string;
  publishedAt: Date;
}

export type InboxKind = 'comment' | 'reply' | 'mention';

/** A comment, reply or mention as the network gives it. */
export interface RemoteComment {
  remoteId: string;
  remoteUrl: string | null;
  /** Which watched post it belongs to (its remoteId). */
  postRemoteId: string;
  /** What it answers at the network: the post, or another comment. */
  parentRemoteId: string | null;
  kind: InboxKind;
  author: { displayName: string; username: string; avatarUrl: string | null };
  text: string;
  createdAt: Date;
  /** What a reply to it needs beyond its id (Bluesky's cid and thread root); stored with the item. */
  reference?: Record<string, string>;
}

/** A poll's answer: the comments newer than the cursor, and the cursor to ask from next time. */
export interface CommentPage {
  comments: RemoteComment[];
  /** Network-specific, JSON: the last seen id or time. */
  cursor: InboxCursor;
  /** Calls the poll made to the network (what it costs against the network's read limits). */
  calls: number;
}

export type InboxCursor = Record<string, string>;

export interface ListCommentsRequest {
  account: ConnectedAccount;
  posts: WatchedPost[];
  /** What the last poll returned as `cursor` ({} on the first). */
  since: InboxCursor;
  signal: AbortSignal;
}

/** The comment a reply answers, as stored. */
export interface CommentRef {
  remoteId: string;
  postRemoteId: string;
  reference: Record<string, string>;
}

export interface ReplyRequest {
  account: ConnectedAccount;
  comment: CommentRef;
  text: string;
  /** Stable per reply: networks with idempotency keys get it. */
  idempotencyKey: string;
  /** What earlier attempts of this reply did (kit/steps.ts): a crash between the network's answer and our record never answers twice. */
  checkpoint: Checkpoint;
  signal: AbortSignal;
}

export interface InboxAdapter {
  /**
   * The network's read limit a poll is charged to (kit/quotas.ts, one unit per call): a poll may use at most
   * `pollSharePercent` of it, so what is left of each window stays for publishing. None: the network does not count reads.
   */
  readonly readQuota?: Quota;
  /**
   * Why this account's comments cannot be read at all (a permission the operator's app cannot have), said before any
   * call or charge; null where they can. None: every account's can.
   */
  unavailableFor?(account: Pick<ConnectedAccount, 'remoteId'>): string | null;
  /** The comments, replies and mentions on `posts` newer than `since`, without the account's own. */
  listComments(request: ListCommentsRequest): Promise<CommentPage>;
  /** Posts `text` once as the account in reply to the comment. A refusal is a permanent ProviderError with the network's reason. */
  reply(request: ReplyRequest): Promise<PublishedItem>;
}

/** The most of a read quota's window polls may use: the rest is kept for publishing and replying. */
export const pollSharePercent = 50;
