// A post's team comments, and the review decisions among them (kind approved | changes_requested), newest first.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import type { PostComment, Prisma, User } from '../db/generated/prisma/client.ts';

export type CommentWithAuthor = PostComment & { author: Pick<User, 'id' | 'email' | 'name'> | null };

const withAuthor = { author: { select: { id: true, email: true, name: true } } } as const satisfies Prisma.PostCommentInclude;

async function requirePost(db: Database, actor: Actor, postId: string): Promise<void> {
  const post = isUuid(postId) ? await db.prisma.post.findFirst({ where: { id: postId, workspaceId: actor.workspaceId }, select: { id: true } }) : null;
  if (!post) throw notFound('post');
}

export async function listComments(db: Database, actor: Actor, postId: string, request: PageRequest): Promise<Page<CommentWithAuthor>> {
  authorize(actor, 'listPostComments');
  const limit = pageSize(request);
  const after = decodeCursor(request.cursor, isUuid);
  await requirePost(db, actor, postId);
  const rows = await db.prisma.postComment.findMany({
    where: { postId, AND: [newestFirstAfter<Prisma.PostCommentWhereInput>('createdAt', after)] },
    include: withAuthor,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, commentPosition);
}

export const commentPosition = (comment: PostComment) => ({ at: comment.createdAt.toISOString(), id: comment.id });

export async function addComment(db: Database, actor: Actor, postId: string, text: string): Promise<CommentWithAuthor> {
  authorize(actor, 'addPostComment');
  refuseUnlessEmpty(textWithin('text', text.trim(), inputLimits.comment.text, 1));
  await requirePost(db, actor, postId);
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
