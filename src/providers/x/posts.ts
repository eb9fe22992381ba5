// Creating a post at X, and finding one an interrupted attempt created: publishing (adapter.ts) and answering in the
// inbox (inbox.ts) both post through these. X takes no idempotency key
// (https://docs.x.com/x-api/posts/create-post), so a post step an earlier attempt started without recording its result
// is looked up among the account's posts (GET /2/users/{id}/tweets, https://docs.x.com/x-api/users/get-posts) by its
// text and, for a reply, by the post it replies to (`referenced_tweets` replied_to), before posting again.
import type { NetworkHttp } from '../http.ts';
import { linkPattern } from '../../text/links.ts';
import { dataOf, type Post } from './api.ts';
import type { Session } from './media.ts';

export interface NewPost {
  text: string;
  mediaIds: string[];
  /** `reply.in_reply_to_tweet_id` */
  inReplyTo?: string;
  /** X's reply_settings; `everyone` (X's default) is sent as nothing. */
  replySettings?: string;
}

/** POST /2/tweets: the new post's id. */
export async function createPost(http: NetworkHttp, session: Session, { text, mediaIds, inReplyTo, replySettings = 'everyone' }: NewPost): Promise<string> {
  const { body } = await http.send<{ data?: Post }>({
    method: 'POST',
    url: `${session.apiBaseUrl}/2/tweets`,
    accessToken: session.accessToken,
    body: {
      json: {
        ...(text ? { text } : {}),
        ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
        ...(inReplyTo ? { reply: { in_reply_to_tweet_id: inReplyTo } } : {}),
        // X knows no `everyone`: leaving reply_settings out is that.
        ...(replySettings === 'everyone' ? {} : { reply_settings: replySettings }),
      },
    },
    signal: session.signal,
    idempotent: false,
  });
  return dataOf(body, 'post').id;
}

/** Text as X shows it back (links become t.co links, a media post ends with one): compared without links. */
const comparable = (text: string) => text.replace(linkPattern, '').replace(/\s+/g, ' ').trim();

export interface PostSought {
  /** The account's X user id. */
  authorId: string;
  text: string;
  inReplyTo?: string;
  /** Where the account's timeline is read from: a time (`start_time`), or a post it must be newer than (`since_id`). */
  after: { start_time: string } | { since_id: string };
}

/** The id of the account's post with that text (and replying to that post), if X has one. */
export async function findPost(http: NetworkHttp, session: Session, sought: PostSought): Promise<string | null> {
  const query = new URLSearchParams({ max_results: '20', ...sought.after, 'tweet.fields': 'referenced_tweets' });
  const { body } = await http.send<{ data?: Post[] }>({
    method: 'GET',
    url: `${session.apiBaseUrl}/2/users/${encodeURIComponent(sought.authorId)}/tweets?${query}`,
    accessToken: session.accessToken,
    signal: session.signal,
  });
  const repliesTo = (post: Post) => post.referenced_tweets?.find((reference) => reference.type === 'replied_to')?.id;
  return (body.data ?? []).find((post) => comparable(post.text) === comparable(sought.text) && repliesTo(post) === sought.inReplyTo)?.id ?? null;
}

/** Where X shows a post. */
export const permalink = (username: string, id: string) => `https://x.com/${encodeURIComponent(username)}/status/${id}`;
