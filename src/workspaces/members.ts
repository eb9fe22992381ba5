// People of a workspace and their roles, managed by its owners and admins (the dashboard's "People"). The operator's
// CLI does the same through workspaces.ts; here the caller's own role bounds what they may do: only an owner makes
// someone an owner or changes an owner's place, and an existing person's password is never set by someone else.
import { AppError, invalidRequest } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import { requireRole, type Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { assertValidCredentials } from '../access/credentials.ts';
import { isUuid } from '../ids.ts';
import type { Role } from '../access/scopes.ts';
import { addUser, removeUser, setUserRole } from './workspaces.ts';

export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: string;
  joinedAt: Date;
}

async function findMember(db: Database, actor: Actor, userId: string): Promise<Member | null> {
  if (!isUuid(userId)) return null;
  const membership = await db.prisma.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: actor.workspaceId, userId } },
    include: { user: true },
  });
  return membership && { userId, email: membership.user.email, name: membership.user.name, role: membership.role, joinedAt: membership.createdAt };
}

async function requireMember(db: Database, actor: Actor, userId: string): Promise<Member> {
  const member = await findMember(db, actor, userId);
  if (!member) throw new AppError('NOT_FOUND', 'notFound', { kind: 'member' });
  return member;
}

/** Owners alone grant the owner role, or change or remove an owner. */
function requireOwnerFor(actor: Actor, roles: readonly string[], operation: string): void {
  if (roles.includes('owner')) requireRole(actor, ['owner'], operation);
}

export async function listMembers(db: Database, actor: Actor): Promise<Member[]> {
  authorize(actor, 'listMembers');
  const memberships = await db.prisma.membership.findMany({
    where: { workspaceId: actor.workspaceId },
    include: { user: true },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
  });
  return memberships.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, joinedAt: m.createdAt }));
}

/** Adds a person by email; a new person may be given a first password to sign in with. */
export async function addMember(db: Database, actor: Actor, input: { email: string; role: Role; password?: string }): Promise<Member> {
  authorize(actor, 'addMember');
  requireOwnerFor(actor, [input.role], 'addMember');
  assertValidCredentials(input);
  const existing = await db.prisma.user.findUnique({
    where: { email: input.email.trim().toLowerCase() },
    include: { memberships: { where: { workspaceId: actor.workspaceId } } },
  });
  if (existing?.memberships.length) throw new AppError('CONFLICT', 'memberExists');
  if (existing && input.password) {
    throw invalidRequest([{ field: 'password', code: 'existingUser', messageKey: 'detail.passwordOfExistingUser' }]);
  }
  const { userId } = await addUser(db, { ...input, workspaceId: actor.workspaceId });
  return requireMember(db, actor, userId);
}

export async function setMemberRole(db: Database, actor: Actor, userId: string, role: Role): Promise<Member> {
  authorize(actor, 'setMemberRole');
  const member = await requireMember(db, actor, userId);
  requireOwnerFor(actor, [member.role, role], 'setMemberRole');
  await setUserRole(db, { workspaceId: actor.workspaceId, userId, role });
  return { ...member, role };
}

/** Removes the person from the workspace; the keys they created stop working. */
export async function removeMember(db: Database, actor: Actor, userId: string): Promise<Member> {
  authorize(actor, 'removeMember');
  const member = await requireMember(db, actor, userId);
  requireOwnerFor(actor, [member.role], 'removeMember');
  await removeUser(db, { workspaceId: actor.workspaceId, userId });
  return member;
}

export interface Person {
  id: string;
  email: string;
  name: string | null;
  workspaces: { id: string; name: string; role: string }[];
}

/** The caller as a person: who they are and every workspace they belong to, with their role in each. */
export async function describePerson(db: Database, actor: Actor): Promise<Person> {
  authorize(actor, 'viewer');
  const user = await db.prisma.user.findUniqueOrThrow({
    where: { id: actor.userId },
    include: { memberships: { include: { workspace: { select: { id: true, name: true } } }, orderBy: { createdAt: 'asc' } } },
  });
  return { id: user.id, email: user.email, name: user.name, workspaces: user.memberships.map((m) => ({ ...m.workspace, role: m.role })) };
}
