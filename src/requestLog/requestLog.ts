// Reading the request log: owners and admins of a workspace see its calls, newest first.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import type { Prisma, RequestLog } from '../db/generated/prisma/client.ts';
import { decodeCursor, newestFirstAfter, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';

export const requestLogPosition = (row: RequestLog) => ({ at: row.createdAt.toISOString(), id: row.id.toString() });

export async function listRequestLog(db: Database, actor: Actor, request: PageRequest): Promise<Page<RequestLog>> {
  authorize(actor, 'requestLog');
  const limit = pageSize(request);
  const rows = await db.prisma.requestLog.findMany({
    where: {
      workspaceId: actor.workspaceId,
      ...newestFirstAfter<Prisma.RequestLogWhereInput>(
        'createdAt',
        decodeCursor(request.cursor, (id) => /^\d{1,19}$/.test(id)),
        BigInt,
      ),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  return toPage(rows, limit, requestLogPosition);
}
