// Connected social accounts. Provider tokens are sealed before they reach the database and never leave
// this module in any view.
import { AppError, invalidRequest, notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import { requirePlan, type Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { decodeCursor, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { plans } from '../workspaces/plans.ts';
import { providerNames } from '../providers/catalog.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import type { ProviderTokens } from '../providers/adapter.ts';
import type { Outbox } from '../events/outbox.ts';
import type { SocialAccount } from '../db/generated/prisma/client.ts';


export interface SocialAccountView {
  id: string;
  provider: string;
  displayName: string;
  username: string;
  status: string;
  needsReconnect: boolean;
  avatarUrl: string | null;
  connectedAt: string;
}

export function presentSocialAccount(account: SocialAccount): SocialAccountView {
  return {
    id: account.id,
    provider: account.provider,
    displayName: account.displayName,
    username: account.username,
    status: account.status,
    needsReconnect: account.needsReconnect,
    avatarUrl: account.avatarUrl,
    connectedAt: account.connectedAt.toISOString(),
  };
}

export const socialAccountPosition = (account: SocialAccount) => ({ at: account.connectedAt.toISOString(), id: account.id });

export async function listSocialAccounts(db: Database, actor: Actor, request: PageRequest): Promise<Page<SocialAccount>> {
  authorize(actor, 'listSocialAccounts');
  const limit = pageSize(request);
  const position = decodeCursor(request.cursor, isUuid);
  // Plain SQL on the pool rather than Prisma: this list answers most API calls, and Prisma's query layer cost
  // about a third of its throughput (npm run bench). The columns are aliased to the Prisma model's shape.
  const { rows } = await db.pool.query<SocialAccount>(
    `SELECT id, workspace_id AS "workspaceId", provider, username, display_name AS "displayName", status,
            needs_reconnect AS "needsReconnect", remote_id AS "remoteId", avatar_url AS "avatarUrl",
            encrypted_tokens AS "encryptedTokens", token_expires_at AS "tokenExpiresAt", connected_at AS "connectedAt",
            revoked_at AS "revokedAt"
     FROM social_account
     WHERE workspace_id = $1 AND ($2::timestamptz IS NULL OR (connected_at, id) < ($2::timestamptz, $3::uuid))
     ORDER BY connected_at DESC, id DESC LIMIT $4`,
    [actor.workspaceId, position?.at ?? null, position?.id ?? null, limit + 1],
  );
  return toPage(rows, limit, socialAccountPosition);
}

export async function getSocialAccount(db: Database, actor: Actor, id: string): Promise<SocialAccount> {
  authorize(actor, 'getSocialAccount');
  const account = isUuid(id) ? await db.prisma.socialAccount.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!account) throw notFound('social account');
  return account;
}

export interface ConnectAccountInput {
  workspaceId: string;
  provider: string;
  username: string;
  displayName?: string;
  tokens?: ProviderTokens;
}

/** Connects an account (operator CLI; OAuth flows will call this too). Reconnecting an account refreshes it. */
export async function connectSocialAccount(
  db: Database,
  secrets: SecretBox,
  adapters: ProviderAdapters,
  outbox: Outbox,
  input: ConnectAccountInput,
): Promise<{ connectionId: string }> {
  if (!providerNames.includes(input.provider)) {
    throw invalidRequest([{ field: 'provider', code: 'enum', messageKey: 'detail.enum', params: { allowed: providerNames.join(', ') } }]);
  }
  const adapter = adapters.get(input.provider);
  if (input.provider !== 'sandbox' && !input.tokens) {
    throw invalidRequest([{ field: 'accessToken', code: 'required', messageKey: 'detail.required' }]);
  }
  const identity = adapter?.connector.method === 'local' ? { remoteId: `${input.provider}-${input.username}`, displayName: undefined } : null;
  return db.prisma.$transaction(async (tx) => {
    const workspace = await tx.workspace.findUnique({ where: { id: input.workspaceId } });
    if (!workspace) throw new AppError('NOT_FOUND', 'notFound', { kind: 'workspace' });
    const plan = requirePlan(workspace);
    const data = {
      displayName: input.displayName ?? identity?.displayName ?? input.username,
      status: 'ACTIVE',
      needsReconnect: false,
      remoteId: identity?.remoteId ?? null,
      encryptedTokens: input.tokens ? secrets.seal(JSON.stringify(input.tokens)) : null,
      tokenExpiresAt: input.tokens?.expiresAt ? new Date(input.tokens.expiresAt) : null,
      revokedAt: null,
    };
    const key = { workspaceId: input.workspaceId, provider: input.provider, username: input.username };
    const existing = await tx.socialAccount.findUnique({ where: { workspaceId_provider_username: key } });
    if (existing) {
      await tx.socialAccount.update({ where: { id: existing.id }, data });
      await outbox.record(tx, input.workspaceId, 'connection.connected', { connectionId: existing.id, provider: input.provider, username: input.username, reconnected: true });
      return { connectionId: existing.id };
    }
    const active = await tx.socialAccount.count({ where: { workspaceId: input.workspaceId, status: 'ACTIVE' } });
    if (active >= plans[plan].maxSocialAccounts) {
      throw new AppError('ENTITLEMENT_EXCEEDED', 'planAccountLimit', { plan, limit: plans[plan].maxSocialAccounts });
    }
    const created = await tx.socialAccount.create({ data: { ...key, ...data } });
    await outbox.record(tx, input.workspaceId, 'connection.connected', { connectionId: created.id, provider: input.provider, username: input.username, reconnected: false });
    return { connectionId: created.id };
  });
}

/** Marks the account revoked: it stays listed (needsReconnect) and its tokens are erased. */
export async function revokeSocialAccount(db: Database, outbox: Outbox, connectionId: string): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const account = await tx.socialAccount.findUnique({ where: { id: connectionId } });
    if (!account) throw new AppError('NOT_FOUND', 'notFound', { kind: 'social account' });
    await tx.socialAccount.update({
      where: { id: connectionId },
      data: { status: 'REVOKED', needsReconnect: true, encryptedTokens: null, revokedAt: new Date() },
    });
    await outbox.record(tx, account.workspaceId, 'connection.revoked', { connectionId, provider: account.provider, username: account.username });
  });
}
