// Bluesky's inbox: the replies under the account's posts, read from the AppView through the account's PDS, answered
// as reply records in the account's repository.
//   read    app.bsky.feed.getPostThread (uri, depth, parentHeight 0;
//           https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread) at the account's PDS, which passes app.bsky.*
//           on to its AppView with a service-auth JWT (https://docs.bsky.app/docs/advanced-guides/api-directory):
//           replies are records in other people's repositories, and only an AppView knows them. The thread comes
//           whole, without a cursor or a "since" (the lexicon has neither), so every poll reads it whole and the
//           store keeps each reply once by its AT-URI; a time cursor would lose replies, since `createdAt` is
//           declared by the writer's client. Deleted replies are not in the thread (the AppView drops them, or
//           answers NotFoundPost in their place), nor are blocked ones (BlockedPost); a deleted post answers NotFound
//           and has nothing to read. The account's own posts are not comments, but the replies under them are.
//   reply   an app.bsky.feed.post record with `reply: {root, parent}` (strong refs; the root is the comment's own
//           root, https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds), written under a
//           record key derived from the reply's id (recordKey.ts) and only if absent: an attempt that crashed after
//           the PDS wrote it finds it there and never writes a second one. The comment is looked up first: one
//           deleted (NotFound) or blocked either way is refused with the AppView's reason.
//   limits  3000 requests per 5 minutes per IP at a PDS (https://docs.bsky.app/docs/advanced-guides/rate-limits).
import type { AppBskyFeedDefs, AppBskyFeedPost } from '@atproto/api';
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest, WatchedPost } from '../inbox.ts';
import { Steps } from '../kit/steps.ts';
import type { Quota } from '../kit/quotas.ts';
import { type BlueskyClient, postCollection, postItem, type Session } from './client.ts';
import { mapErrors, xrpcErrorName } from './errors.ts';
import { recordKeyFor } from './recordKey.ts';
import { richTextOf } from './richText.ts';

/**
 * Counted for the whole installation: the limit is per IP, and every account of a PDS (all of bsky.social's behind
 * its entryway) is called from the service's address.
 */
const blueskyReadQuota: Quota = { name: 'Bluesky: 3000 requests per 5 minutes per IP', scope: 'app', windowSeconds: 300, limit: 3000, costPerPublish: 1 };

/** The lexicon's deepest thread (getPostThread's `depth` is at most 1000); an AppView may answer fewer levels. */
const threadDepth = 1000;

type ThreadNode = AppBskyFeedDefs.ThreadViewPost['replies'] extends (infer Node)[] | undefined ? Node : never;

export class BlueskyInbox implements InboxAdapter {
  readonly readQuota = blueskyReadQuota;
  readonly #client: BlueskyClient;

  constructor(client: BlueskyClient) {
    this.#client = client;
  }

  async listComments({ account, posts, signal }: ListCommentsRequest): Promise<CommentPage> {
    const session = await this.#client.session(account);
    const comments: RemoteComment[] = [];
    for (const post of posts) {
      const thread = await this.#thread(session, post.remoteId, threadDepth, signal);
      if (thread) collect(thread, post, session.did, comments);
    }
    return { comments, cursor: {}, calls: posts.length };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const session = await this.#client.session(request.account);
    const place = { repo: session.did, collection: postCollection, rkey: recordKeyFor(request.idempotencyKey) };
    const item = postItem(handleOf(request.account), `at://${place.repo}/${place.collection}/${place.rkey}`);
    const { comment, signal } = request;
    return mapErrors(() =>
      new Steps(request.checkpoint).once(
        'reply',
        async () => {
          const thread = await this.#thread(session, comment.remoteId, 0, signal);
          if (!thread) throw new ProviderError('PROVIDER_REJECTED', `Post not found: ${comment.remoteId}`, false);
          if (thread.$type === 'app.bsky.feed.defs#blockedPost') {
            throw new ProviderError(
              'PROVIDER_REJECTED',
              'Bluesky: the author of the comment and the account block each other; a reply would not be shown.',
              false,
            );
          }
          const text = await richTextOf(request.text, session.agent);
          const parent = { uri: comment.remoteId, cid: comment.reference.cid ?? '' };
          const root = comment.reference.rootUri ? { uri: comment.reference.rootUri, cid: comment.reference.rootCid ?? '' } : parent;
          const record: AppBskyFeedPost.Record = {
            $type: postCollection,
            text: text.text,
            createdAt: new Date().toISOString(),
            reply: { root, parent },
            ...(text.facets.length ? { facets: text.facets } : {}),
          };
          await this.#client.putOnce(session, place, record, signal);
          return item;
        },
        // The record key is the reply's: what an interrupted attempt wrote is found there.
        { ifInterrupted: async () => ((await this.#client.findRecord(session, place, signal)) === null ? null : item) },
      ),
    );
  }

  /** The post's thread as the AppView shows it to the account, or null when the post is gone. */
  async #thread(session: Session, uri: string, depth: number, signal: AbortSignal): Promise<ThreadNode | null> {
    try {
      const { data } = await session.agent.app.bsky.feed.getPostThread({ uri, depth, parentHeight: 0 }, this.#client.callOptions(session, signal));
      return data.thread as ThreadNode;
    } catch (error) {
      if ((await xrpcErrorName(error)) === 'NotFound') return null;
      throw error;
    }
  }
}

/** The replies under `node` (depth first), without the account's own. */
function collect(node: ThreadNode, post: WatchedPost, own: string, into: RemoteComment[]): void {
  if (node.$type !== 'app.bsky.feed.defs#threadViewPost') return;
  const { post: view, replies = [] } = node as AppBskyFeedDefs.ThreadViewPost;
  const record = view.record as Partial<AppBskyFeedPost.Record>;
  if (view.uri !== post.remoteId && view.author.did !== own) {
    const parent = record.reply?.parent.uri ?? post.remoteId;
    into.push({
      remoteId: view.uri,
      // By the author's DID, which never changes: a handle can, and the AppView shows `handle.invalid` for one it cannot verify.
      remoteUrl: postItem(view.author.did, view.uri).remoteUrl,
      postRemoteId: post.remoteId,
      parentRemoteId: parent,
      kind: parent === post.remoteId ? 'comment' : 'reply',
      author: { displayName: view.author.displayName?.trim() || view.author.handle, username: view.author.handle, avatarUrl: view.author.avatar ?? null },
      text: record.text ?? '',
      createdAt: createdAtOf(record.createdAt, view.indexedAt),
      reference: { cid: view.cid, ...(record.reply ? { rootUri: record.reply.root.uri, rootCid: record.reply.root.cid } : {}) },
    });
  }
  for (const reply of replies) collect(reply as ThreadNode, post, own, into);
}

/** The writer's `createdAt`, unless it is later than when the AppView saw the post (clients set it as they like). */
function createdAtOf(declared: string | undefined, indexedAt: string): Date {
  const indexed = new Date(indexedAt);
  const created = new Date(declared ?? '');
  return Number.isNaN(created.getTime()) || created > indexed ? indexed : created;
}

function handleOf(account: ConnectedAccount): string {
  return account.tokens?.extra?.handle ?? account.username;
}
