// API keys: shown once at creation, stored as a SHA-256 digest, scoped, optionally expiring, revocable.
import { AppError, invalidRequest, notFound } from '../errors/appError.ts';
import type { Database } from '../db/database.ts';
import { isUuid } from '../ids.ts';
import { inputLimits, refuseUnlessEmpty, textWithin } from '../limits.ts';
import { requirePlan, requireScopes, type Actor } from './actor.ts';
import { authorize } from './operations.ts';
import { isRole, isScope, managerRoles, scopePresets, type Scope, type ScopePreset } from './scopes.ts';
import { digestSecret, newSecret } from './secrets.ts';

export const apiKeyPrefix = 'sps';

export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  createdById: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export function resolveScopes(input: { scopes?: string[]; preset?: ScopePreset }): Scope[] {
  if (input.preset) return [...scopePresets[input.preset]];
  const requested = input.scopes ?? [];
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length || requested.length === 0) {
    throw invalidRequest(
      unknown.length
        ? unknown.map((scope) => ({ field: 'scopes', code: 'enum', messageKey: 'detail.unknownScope' as const, params: { scope } }))
        : [{ field: 'scopes', code: 'required', messageKey: 'detail.required' }],
    );
  }
  return [...new Set(requested as Scope[])];
}

/** Only owners and admins create keys, and only on a plan in force that includes API access. */
export async function createApiKey(
  db: Database,
  input: { workspaceId: string; userId: string; scopes?: string[]; preset?: ScopePreset; expiresAt?: Date; name?: string },
): Promise<{ keyId: string; apiKey: string }> {
  const keyScopes = resolveScopes(input);
  const now = new Date();
  if (input.expiresAt && input.expiresAt <= now) {
    throw invalidRequest([{ field: 'expiresAt', code: 'past', messageKey: 'detail.laterThan', params: { earliest: now.toISOString() } }]);
  }
  const membership = await db.prisma.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } },
    include: { workspace: true },
  });
  if (!membership || !isRole(membership.role)) throw new AppError('NOT_FOUND', 'notFound', { kind: 'member' });
  if (!managerRoles.includes(membership.role)) {
    throw new AppError('FORBIDDEN', 'forbiddenRole', { role: membership.role, operation: 'createApiKey' });
  }
  requirePlan(membership.workspace, 'apiAccess');
  const apiKey = newSecret(apiKeyPrefix);
  const key = await db.prisma.apiKey.create({
    data: {
      workspaceId: input.workspaceId,
      createdById: input.userId,
      name: input.name ?? null,
      prefix: apiKey.slice(0, apiKeyPrefix.length + 7),
      hash: digestSecret(apiKey),
      scopes: keyScopes,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { keyId: key.id, apiKey };
}

export async function revokeApiKey(db: Database, keyId: string): Promise<void> {
  const { count } = await db.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  db.accessChanged();
  if (count === 0 && !(await db.prisma.apiKey.findUnique({ where: { id: keyId } }))) {
    throw new AppError('NOT_FOUND', 'notFound', { kind: 'apiKey' });
  }
}

const summaryFields = { id: true, name: true, prefix: true, createdById: true, scopes: true, expiresAt: true, revokedAt: true, createdAt: true } as const;

export async function listApiKeys(db: Database, workspaceId: string): Promise<ApiKeySummary[]> {
  return db.prisma.apiKey.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: summaryFields });
}

/**
 * A key created by a person of the workspace for themselves (the dashboard's "API keys"): owners and admins, and a
 * key never grants more than its creator holds now (a key with access:write cannot mint a broader key).
 */
export async function createOwnApiKey(
  db: Database,
  actor: Actor,
  input: { scopes?: string[]; preset?: ScopePreset; expiresAt?: Date; name?: string },
): Promise<{ key: ApiKeySummary; apiKey: string }> {
  authorize(actor, 'createApiKey');
  refuseUnlessEmpty(textWithin('name', input.name, inputLimits.apiKey.name));
  requireScopes(actor, resolveScopes(input), 'createApiKey');
  const { keyId, apiKey } = await createApiKey(db, { ...input, workspaceId: actor.workspaceId, userId: actor.userId });
  return { key: await db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: summaryFields }), apiKey };
}

export async function listWorkspaceApiKeys(db: Database, actor: Actor): Promise<ApiKeySummary[]> {
  authorize(actor, 'listApiKeys');
  return listApiKeys(db, actor.workspaceId);
}

/** Revokes a key of the workspace (any person's: owners and admins keep the workspace's keys in hand). */
export async function revokeWorkspaceApiKey(db: Database, actor: Actor, keyId: string): Promise<ApiKeySummary> {
  authorize(actor, 'revokeApiKey');
  const key = isUuid(keyId) ? await db.prisma.apiKey.findFirst({ where: { id: keyId, workspaceId: actor.workspaceId }, select: summaryFields }) : null;
  if (!key) throw notFound('apiKey');
  await revokeApiKey(db, key.id);
  return db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: summaryFields });
}
