// LinkedIn's Comments API as both the first comment of a publish (adapter.ts) and the inbox (inbox.ts) use it
// (https://learn.microsoft.com/linkedin/marketing/community-management/shares/comments-api):
//   list    GET /rest/socialActions/{post urn}/comments: the post's first-level comments; GET
//           /rest/socialActions/{comment urn}/comments: the comments nested under one. Paged by `start` and
//           `count` with `paging.total` (Rest.li paging, https://learn.microsoft.com/linkedin/shared/api-guide/concepts/pagination).
//   create  POST /rest/socialActions/{post or comment urn}/comments {actor, object: the post, message: {text},
//           parentComment: the comment answered, for a nested one}: 201 with the comment (`commentUrn`) and its URN
//           in `x-restli-id`.
import { ProviderError } from '../adapter.ts';
import { restliUrn } from './api.ts';
import type { Session } from './media.ts';

/** A comment as the Comments API answers it (the fields read here). */
export interface LinkedInComment {
  id?: string;
  commentUrn?: string;
  $URN?: string;
  /** Who wrote it: a member (urn:li:person:…) or an organization (urn:li:organization:…). */
  actor?: string;
  /** The post it is on. */
  object?: string;
  /** The first-level comment it is nested under; absent on a first-level comment. */
  parentComment?: string;
  message?: { text?: string };
  created?: { actor?: string; time?: number };
  /** What is nested under it (the social actions' summary: postiz linkedin.page.provider.ts reads `totalFirstLevelComments`). */
  commentsSummary?: { totalFirstLevelComments?: number; aggregatedTotalComments?: number };
}

interface CommentsPage {
  elements?: LinkedInComment[];
  paging?: { start?: number; count?: number; total?: number };
}

/** The most comments one call asks for. */
const pageSize = 100;

/** Every comment directly under `urn` (a post, or a first-level comment), page by page, and the calls that took. */
export async function commentsUnder(session: Session, urn: string): Promise<{ comments: LinkedInComment[]; calls: number }> {
  const comments: LinkedInComment[] = [];
  let calls = 0;
  for (let start = 0; ; ) {
    const { body } = await session.api.send<CommentsPage>({
      method: 'GET',
      path: `/rest/socialActions/${restliUrn(urn)}/comments?start=${start}&count=${pageSize}`,
      accessToken: session.accessToken,
      signal: session.signal,
    });
    calls++;
    const elements = body?.elements ?? [];
    comments.push(...elements);
    start += elements.length;
    // A page shorter than asked, or `total` reached, is the last.
    if (!elements.length || start >= (body?.paging?.total ?? start)) return { comments, calls };
  }
}

/** What a new comment is: on the post `object`, nested under `parentComment` where it answers one. */
export interface NewComment {
  object: string;
  text: string;
  parentComment?: string;
}

/** Posts `comment` as the session's author; answers its URN. Not sent again by itself: LinkedIn takes no idempotency key. */
export async function postComment(session: Session, comment: NewComment): Promise<string> {
  const under = comment.parentComment ?? comment.object;
  const { body, headers } = await session.api.send<{ commentUrn?: string }>({
    method: 'POST',
    path: `/rest/socialActions/${restliUrn(under)}/comments`,
    accessToken: session.accessToken,
    body: {
      json: {
        actor: session.author,
        object: comment.object,
        message: { text: comment.text },
        ...(comment.parentComment ? { parentComment: comment.parentComment } : {}),
      },
    },
    signal: session.signal,
  });
  const commentUrn = body?.commentUrn ?? headers['x-restli-id'];
  if (typeof commentUrn !== 'string' || !commentUrn.startsWith('urn:li:comment:'))
    throw new ProviderError('PROVIDER_UNAVAILABLE', 'LinkedIn took the comment without naming it.', false);
  return commentUrn;
}

/** The URN a comment is known by (`commentUrn`; `$URN` in some answers). */
export const urnOf = (comment: LinkedInComment): string | undefined => comment.commentUrn ?? comment.$URN;

/** The comment the session's author wrote under `urn` with `text`, if there is one: what an interrupted attempt may have posted. */
export async function ownComment(session: Session, urn: string, text: string): Promise<string | null> {
  const { comments } = await commentsUnder(session, urn);
  const found = comments.find((comment) => comment.actor === session.author && comment.message?.text === text);
  return (found && urnOf(found)) ?? null;
}

/** The post's page opened at one of its comments. */
export const commentUrl = (postUrn: string, commentUrn: string) => `https://www.linkedin.com/feed/update/${postUrn}/?commentUrn=${restliUrn(commentUrn)}`;

/** A read made to learn what an interrupted attempt did; LinkedIn refusing the app that read is said with what to do. */
export async function lookUp<T>(read: () => Promise<T>, refused: (reason: string) => string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ProviderError) || error.code !== 'PROVIDER_REJECTED') throw error;
    throw new ProviderError('PROVIDER_REJECTED', refused(error.message), false);
  }
}
