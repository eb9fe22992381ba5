// Operator actions on workspaces, people and plans (the CLI's `setup`, `users` and `plans` commands).
import { AppError } from '../errors/appError.ts';
import type { Database, Transaction } from '../db/database.ts';
import { hashPassword } from '../access/passwords.ts';
import { assertValidCredentials } from '../access/credentials.ts';
import { createApiKey } from '../access/apiKeys.ts';
import { scopes, type Role } from '../access/scopes.ts';
import { isPlanName, plans, type PlanName } from './plans.ts';

export interface SetupResult {
  workspaceId: string;
  userId: string;
  /** Null when the plan has no API access. */
  apiKey: string | null;
}

/** `passwordHash` is computed before the transaction: scrypt's CPU time must not hold a transaction open. */
async function findOrCreateUser(tx: Transaction, email: string, passwordHash: string | null): Promise<string> {
  const normalized = email.trim().toLowerCase();
  const existing = await tx.user.findUnique({ where: { email: normalized } });
  if (existing) {
    if (passwordHash) await tx.user.update({ where: { id: existing.id }, data: { passwordHash } });
    return existing.id;
  }
  const created = await tx.user.create({ data: { email: normalized, passwordHash } });
  return created.id;
}

const passwordHashOf = async (password: string | undefined) => (password ? hashPassword(password) : null);

export async function setupWorkspace(db: Database, input: { name: string; email: string; password?: string; plan?: PlanName }): Promise<SetupResult> {
  assertValidCredentials(input);
  const plan = input.plan ?? 'pro';
  const passwordHash = await passwordHashOf(input.password);
  const { workspaceId, userId } = await db.prisma.$transaction(async (tx) => {
    const workspace = await tx.workspace.create({
      data: {
        name: input.name,
        plan,
        aiCreditsMonthly: plans[plan].defaultMonthlyAiCredits,
        aiCreditsRemaining: plans[plan].defaultMonthlyAiCredits,
      },
    });
    const userId = await findOrCreateUser(tx, input.email, passwordHash);
    await tx.membership.create({ data: { workspaceId: workspace.id, userId, role: 'owner' } });
    return { workspaceId: workspace.id, userId };
  });
  const apiKey = plans[plan].apiAccess ? (await createApiKey(db, { workspaceId, userId, scopes: [...scopes], name: 'owner key (setup)' })).apiKey : null;
  return { workspaceId, userId, apiKey };
}

/** Whether this installation has a workspace yet (a fresh one has none: the start-up log then says how to create one). */
export async function anyWorkspaceExists(db: Database): Promise<boolean> {
  return (await db.prisma.workspace.findFirst({ select: { id: true } })) !== null;
}

export async function addUser(db: Database, input: { workspaceId: string; email: string; role: Role; password?: string }): Promise<{ userId: string }> {
  assertValidCredentials(input);
  const passwordHash = await passwordHashOf(input.password);
  const added = await db.prisma.$transaction(async (tx) => {
    await requireWorkspace(tx, input.workspaceId);
    const userId = await findOrCreateUser(tx, input.email, passwordHash);
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId } },
      create: { workspaceId: input.workspaceId, userId, role: input.role },
      update: { role: input.role },
    });
    return { userId };
  });
  db.accessChanged();
  return added;
}

async function requireWorkspace(tx: Transaction, workspaceId: string) {
  const workspace = await tx.workspace.findUnique({ where: { id: workspaceId } });
  if (!workspace) throw new AppError('NOT_FOUND', 'workspaceNotFound');
  return workspace;
}

async function requireMembership(tx: Transaction, workspaceId: string, userId: string) {
  const membership = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
  if (!membership) throw new AppError('NOT_FOUND', 'notFound', { kind: 'member' });
  return membership;
}

/** A workspace always keeps one owner: the last one cannot be demoted or removed. */
async function assertOwnerRemains(tx: Transaction, workspaceId: string, userId: string) {
  const otherOwners = await tx.membership.count({ where: { workspaceId, role: 'owner', userId: { not: userId } } });
  if (otherOwners === 0) throw new AppError('CONFLICT', 'lastOwner');
}

export async function setUserRole(db: Database, input: { workspaceId: string; userId: string; role: Role }): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const membership = await requireMembership(tx, input.workspaceId, input.userId);
    if (membership.role === 'owner' && input.role !== 'owner') await assertOwnerRemains(tx, input.workspaceId, input.userId);
    await tx.membership.update({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } },
      data: { role: input.role },
    });
  });
  db.accessChanged();
}

/** Removing a person revokes every key they created in that workspace. */
export async function removeUser(db: Database, input: { workspaceId: string; userId: string }): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const membership = await requireMembership(tx, input.workspaceId, input.userId);
    if (membership.role === 'owner') await assertOwnerRemains(tx, input.workspaceId, input.userId);
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } } });
    await tx.apiKey.updateMany({
      where: { workspaceId: input.workspaceId, createdById: input.userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  });
  db.accessChanged();
}

export async function setPlan(db: Database, input: { workspaceId: string; plan: string; aiCredits?: number; expired?: boolean }): Promise<void> {
  if (!isPlanName(input.plan)) throw new AppError('INVALID_REQUEST', 'unknownPlan', { plan: input.plan });
  const plan = input.plan;
  await db.prisma.$transaction(async (tx) => {
    await requireWorkspace(tx, input.workspaceId);
    const credits = input.aiCredits ?? plans[plan].defaultMonthlyAiCredits;
    await tx.workspace.update({
      where: { id: input.workspaceId },
      data: { plan, planExpiresAt: input.expired ? new Date() : null, aiCreditsMonthly: credits, aiCreditsRemaining: credits },
    });
  });
  db.accessChanged();
}
