// The workspace's own settings, read by every member and changed by owners and admins: `approvalRequired`
// (src/posts/review.ts) for now.
import type { Database } from '../db/database.ts';
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';

export interface WorkspaceSettings {
  id: string;
  name: string;
  approvalRequired: boolean;
}

const fields = { id: true, name: true, approvalRequired: true } as const;

export async function getWorkspace(db: Database, actor: Actor): Promise<WorkspaceSettings> {
  authorize(actor, 'getWorkspace');
  return db.prisma.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: fields });
}

export async function updateWorkspace(db: Database, actor: Actor, changes: { approvalRequired?: boolean }): Promise<WorkspaceSettings> {
  authorize(actor, 'updateWorkspace');
  return db.prisma.workspace.update({
    where: { id: actor.workspaceId },
    data: changes.approvalRequired === undefined ? {} : { approvalRequired: changes.approvalRequired },
    select: fields,
  });
}
