// A post's team comments, and the review decisions among them (kind approved | changes_requested), newest first.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import type { Page, PageRequest } from '../pagination.ts';
import { pageOfPost, requireOwnPost } from './postRows.ts';
import type { PostComment, Prisma, User } from '../db/generated/prisma/client.ts';

export type CommentWithAuthor = PostComment & { author: Pick<User, 'id' | 'email' | 'name'> | null };

const withAuthor = { author: { select: { id: true, email: true, name: true } } } as const satisfies Prisma.PostCommentInclude;

export async function listComments(db: Database, actor: Actor, postId: string, request: PageRequest): Promise<Page<CommentWithAuthor>> {
  authorize(actor, 'listPostComments');
  return pageOfPost(db, actor, postId, request, (query) => db.prisma.postComment.findMany({ ...query, include: withAuthor }));
}

export async function addComment(db: Database, actor: Actor, postId: string, text: string): Promise<CommentWithAuthor> {
  authorize(actor, 'addPostComment');
  refuseUnlessEmpty(textWithin('text', text.trim(), inputLimits.comment.text, 1));
  await requireOwnPost(db, actor, postId);
  return db.prisma.postComment.create({ data: { postId, authorId: actor.userId, kind: 'comment', text: text.trim() }, include: withAuthor });
}

/** A comment as every transport shows it: a member's has their id and email; a client's (review link) only the name they gave. */
export function presentComment(comment: CommentWithAuthor) {
  return {
    id: comment.id,
    author: comment.author
      ? { userId: comment.author.id, email: comment.author.email, name: comment.author.name }
      : { userId: null, email: null, name: comment.authorName },
    text: comment.text,
    kind: comment.kind,
    createdAt: comment.createdAt.toISOString(),
  };
}
