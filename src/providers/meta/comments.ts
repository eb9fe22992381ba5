// What the inboxes of Meta's networks (Facebook Pages, Instagram) share: the poll's cursor, the newest comment time
// seen per post, and an answer posted once under a comment.
import type { PublishedItem } from '../adapter.ts';
import type { InboxCursor, ReplyRequest } from '../inbox.ts';
import { Steps } from '../kit/steps.ts';
import { commentBy, type Graph } from './graph.ts';

/**
 * The newest comment time seen per post (ISO): a comment is new when it is at least as new as what the last poll saw.
 * Meta's times are to the second, so comments of that second are read again; they are stored once all the same (by id).
 */
export class NewestSeen {
  readonly cursor: InboxCursor;
  readonly #since: InboxCursor;

  constructor(since: InboxCursor) {
    this.#since = since;
    this.cursor = { ...since };
  }

  /** Whether a comment on `post` written at `time` (Meta's `created_time` / `timestamp`) is new; the cursor moves on with it. */
  isNew(post: string, time: string): boolean {
    const at = new Date(Date.parse(time));
    const seen = this.#since[post];
    if (seen && at.getTime() < Date.parse(seen)) return false;
    const iso = at.toISOString();
    if (!this.cursor[post] || iso > this.cursor[post]!) this.cursor[post] = iso;
    return true;
  }
}

export interface MetaReply {
  graph: Graph;
  /** The account's id at Meta: the author an interrupted answer is looked for by. */
  author: string;
  token: string;
  /** The comment answered: a reply's top-level comment (`reference.thread`), Meta threading two levels deep. */
  thread: string;
  /** Where answers to a comment go: Facebook's `comments`, Instagram's `replies`; and what the text is named there. */
  edge: 'comments' | 'replies';
  textField: 'message' | 'text';
  /** The answer as published, from its id. */
  item: (id: string) => Promise<PublishedItem>;
}

/** Posts the answer once: `POST /{thread}/{edge} {message}`, one checkpoint step. */
export function replyOnce(
  { graph, author, token, thread, edge, textField, item }: MetaReply,
  { text, checkpoint, signal }: ReplyRequest,
): Promise<PublishedItem> {
  return new Steps(checkpoint).once('reply', async () => item((await graph.post<{ id: string }>(`/${thread}/${edge}`, token, { message: text }, signal)).id), {
    // Meta takes no idempotency key: an attempt that crashed after sending is looked for among the account's answers
    // under that comment (same text) before the answer is sent again.
    ifInterrupted: async () => {
      const id = await commentBy(graph, thread, { author, textField, text, edge }, token, signal);
      return id ? item(id) : null;
    },
  });
}
