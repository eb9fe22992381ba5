// Rows that belong to one post (its comments, its review links): the post looked up in the actor's workspace first
// (404 for another workspace's), then a page of them, newest first, as every list pages.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';

type Created = { createdAt: Date; id: string };

export const createdPosition = (row: Created) => ({ at: row.createdAt.toISOString(), id: row.id });

/** Throws 404 unless post `postId` is the actor's workspace's. */
export async function requireOwnPost(db: Database, actor: Actor, postId: string): Promise<void> {
  const post = isUuid(postId) ? await db.prisma.post.findFirst({ where: { id: postId, workspaceId: actor.workspaceId }, select: { id: true } }) : null;
  if (!post) throw notFound('post');
}

/** `find` reads the rows with the filter, order and count given (a Prisma findMany of the rows' model). */
export async function pageOfPost<Row extends Created>(
  db: Database,
  actor: Actor,
  postId: string,
  request: PageRequest,
  find: (query: { where: { postId: string; AND: object[] }; orderBy: { createdAt?: 'desc'; id?: 'desc' }[]; take: number }) => Promise<Row[]>,
): Promise<Page<Row>> {
  const limit = pageSize(request);
  const after = decodeCursor(request.cursor, isUuid);
  await requireOwnPost(db, actor, postId);
  const rows = await find({
    where: { postId, AND: [newestFirstAfter('createdAt', after)] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, createdPosition);
}
