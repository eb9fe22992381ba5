// Mastodon's inbox: the replies to the account's statuses, read from each status's context, answered as replies.
//   read    GET /api/v1/statuses/:id/context (https://docs.joinmastodon.org/methods/statuses/#context): every status
//           of the thread below the post (`descendants`, oldest first). Status ids are Snowflake-like and grow with
//           time (https://docs.joinmastodon.org/api/guidelines/#id), so the cursor is the newest id seen per post
//           and a poll keeps only newer descendants. The account's own statuses are not comments.
//   reply   POST /api/v1/statuses with `in_reply_to_id` and the Idempotency-Key = the reply's id (kept 1 hour by
//           Mastodon: a re-attempt after a crash gets the status the first attempt created), at the comment's
//           visibility where that is narrower than public (a reply to a followers-only status stays followers-only).
//   limits  300 calls per 5 minutes per account (https://docs.joinmastodon.org/api/rate-limits/).
import type { ConnectedAccount, PublishedItem } from '../adapter.ts';
import { ProviderError } from '../adapter.ts';
import type { NetworkHttp } from '../http.ts';
import { Steps } from '../kit/steps.ts';
import type { Quota } from '../kit/quotas.ts';
import type { CommentPage, InboxAdapter, ListCommentsRequest, RemoteComment, ReplyRequest } from '../inbox.ts';
import { plainTextOf } from '../kit/plainText.ts';
import type { Account } from './api.ts';

/** https://docs.joinmastodon.org/entities/Status/ (the fields a comment needs). */
interface ContextStatus {
  id: string;
  created_at: string;
  in_reply_to_id: string | null;
  visibility: 'public' | 'unlisted' | 'private' | 'direct';
  url?: string | null;
  uri: string;
  content: string;
  account: Account;
}

/** https://docs.joinmastodon.org/entities/Context/ */
interface Context {
  ancestors: ContextStatus[];
  descendants: ContextStatus[];
}

const mastodonReadQuota: Quota = { name: 'Mastodon: 300 API calls per 5 minutes', scope: 'account', windowSeconds: 300, limit: 300, costPerPublish: 1 };

/** Snowflake ids as numbers: longer is newer, then by digits. */
const newer = (a: string, b: string | undefined) => b === undefined || a.length > b.length || (a.length === b.length && a > b);

export class MastodonInbox implements InboxAdapter {
  readonly readQuota = mastodonReadQuota;
  readonly #http: NetworkHttp;

  constructor(http: NetworkHttp) {
    this.#http = http;
  }

  async listComments({ account, posts, since, signal }: ListCommentsRequest): Promise<CommentPage> {
    const session = sessionOf(account);
    const own = ownId(account);
    const cursor = { ...since };
    const comments: RemoteComment[] = [];
    for (const post of posts) {
      const { body } = await this.#http.send<Context>({
        method: 'GET',
        url: `${session.instance}/api/v1/statuses/${encodeURIComponent(post.remoteId)}/context`,
        accessToken: session.accessToken,
        signal,
      });
      const seen = since[post.remoteId];
      for (const status of body.descendants ?? []) {
        if (!newer(status.id, seen)) continue;
        if (newer(status.id, cursor[post.remoteId])) cursor[post.remoteId] = status.id;
        if (status.account.id === own) continue;
        comments.push({
          remoteId: status.id,
          remoteUrl: status.url ?? status.uri,
          postRemoteId: post.remoteId,
          parentRemoteId: status.in_reply_to_id,
          kind: status.in_reply_to_id === post.remoteId ? 'comment' : 'reply',
          author: {
            displayName: status.account.display_name || status.account.username,
            username: status.account.acct,
            avatarUrl: status.account.avatar ?? null,
          },
          text: plainTextOf(status.content),
          createdAt: new Date(status.created_at),
          reference: { visibility: status.visibility },
        });
      }
    }
    return { comments, cursor, calls: posts.length };
  }

  async reply(request: ReplyRequest): Promise<PublishedItem> {
    const session = sessionOf(request.account);
    const visibility = request.comment.reference.visibility ?? 'public';
    return new Steps(request.checkpoint).once('reply', async () => {
      const { body } = await this.#http.send<ContextStatus>({
        method: 'POST',
        url: `${session.instance}/api/v1/statuses`,
        accessToken: session.accessToken,
        headers: { 'idempotency-key': request.idempotencyKey },
        body: { json: { status: request.text, in_reply_to_id: request.comment.remoteId, visibility } },
        signal: request.signal,
        // Safe to send again: the instance answers a repeated key with the status it already created.
        idempotent: true,
      });
      if (typeof body?.id !== 'string') throw new ProviderError('PROVIDER_UNAVAILABLE', "Mastodon answered without the status's id.", true);
      return { remoteId: body.id, remoteUrl: body.url ?? body.uri };
    });
  }
}

function sessionOf(account: ConnectedAccount) {
  const instance = account.tokens?.extra?.instanceUrl;
  const accessToken = account.tokens?.accessToken;
  if (!instance || !accessToken) throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', 'The account has no Mastodon tokens: connect it again.', false);
  return { instance, accessToken };
}

/** The account's id at its instance: its remote id is `<id>@<host>` (MastodonAdapter's identities). */
function ownId(account: ConnectedAccount): string | undefined {
  return account.remoteId?.split('@')[0];
}
