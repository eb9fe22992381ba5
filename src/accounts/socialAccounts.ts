// Connected social accounts. Provider tokens are sealed before they reach the database and never leave
// this module in any view.
import { AppError, invalidRequest, notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import type { Database, Transaction } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import { requirePlan, type Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { decodeCursor, pageSize, toPage, type Page, type PageRequest } from '../pagination.ts';
import { plans } from '../workspaces/plans.ts';
import { requireProvider } from './providers.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import type { ProviderTokens, RemoteIdentity } from '../providers/adapter.ts';
import type { Outbox } from '../events/outbox.ts';
import { Prisma, type SocialAccount } from '../db/generated/prisma/client.ts';
import type { AccountRules } from '../providers/rules.ts';

export interface SocialAccountView {
  id: string;
  provider: string;
  displayName: string;
  username: string;
  status: string;
  needsReconnect: boolean;
  avatarUrl: string | null;
  /** How it was connected where its network offers several ways (Instagram: `facebook_login`, `instagram_login`). */
  connectionMethod: string | null;
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
    connectionMethod: account.connectionMethod,
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
            encrypted_tokens AS "encryptedTokens", token_expires_at AS "tokenExpiresAt", rules, connection_method AS "connectionMethod",
            connected_at AS "connectedAt",
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
  if (!account) throw notFound('socialAccount');
  return account;
}

/** Who an account is at its network and the tokens to reach it there (none for the sandbox). */
export interface AccountToSave {
  identity: RemoteIdentity;
  tokens: ProviderTokens | null;
  /** The network's rules for this account where they differ per account (a Mastodon instance's limits, a LinkedIn page's visibilities). */
  rules?: AccountRules | null;
  /** How it was connected, where its network offers several ways. */
  method?: string;
}

function sealedTokens(secrets: SecretBox, tokens: ProviderTokens | null) {
  return { encryptedTokens: tokens ? secrets.seal(JSON.stringify(tokens)) : null, tokenExpiresAt: tokens?.expiresAt ? new Date(tokens.expiresAt) : null };
}

/**
 * Creates each account, or brings back the one already connected for the same remote account (same provider and
 * remote id in the workspace: never a duplicate; reconnecting restores ACTIVE on the same id), and records
 * `connection.connected`. The workspace's row is locked meanwhile, so concurrent connects count the plan's limit
 * right and cannot both create one remote account.
 */
export async function saveConnectedAccounts(
  tx: Transaction,
  secrets: SecretBox,
  outbox: Outbox,
  workspaceId: string,
  provider: string,
  accounts: AccountToSave[],
): Promise<SocialAccount[]> {
  const [workspace] = await tx.$queryRawUnsafe<{ plan: string | null; planExpiresAt: Date | null }[]>(
    'SELECT plan, plan_expires_at AS "planExpiresAt" FROM workspace WHERE id = $1::uuid FOR UPDATE',
    workspaceId,
  );
  if (!workspace) throw new AppError('NOT_FOUND', 'workspaceNotFound');
  const plan = requirePlan(workspace);
  const saved: SocialAccount[] = [];
  for (const { identity, tokens, rules, method } of accounts) {
    const data = {
      connectionMethod: method ?? null,
      rules: rules ? (rules as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
      username: identity.username,
      displayName: identity.displayName,
      avatarUrl: identity.avatarUrl ?? null,
      status: 'ACTIVE',
      needsReconnect: false,
      revokedAt: null,
      ...sealedTokens(secrets, tokens),
    };
    const existing = await tx.socialAccount.findFirst({ where: { workspaceId, provider, remoteId: identity.remoteId } });
    let account: SocialAccount;
    if (existing) {
      account = await tx.socialAccount.update({ where: { id: existing.id }, data });
    } else {
      const connected = await tx.socialAccount.count({ where: { workspaceId, status: { not: 'REVOKED' } } });
      if (connected >= plans[plan].maxSocialAccounts) {
        throw new AppError('ENTITLEMENT_EXCEEDED', 'planAccountLimit', { plan, limit: plans[plan].maxSocialAccounts });
      }
      account = await tx.socialAccount.create({ data: { workspaceId, provider, remoteId: identity.remoteId, ...data } });
    }
    await outbox.record(tx, workspaceId, 'connection.connected', {
      connectionId: account.id,
      provider,
      username: account.username,
      reconnected: existing !== null,
    });
    saved.push(account);
  }
  return saved;
}

export interface ConnectAccountInput {
  workspaceId: string;
  provider: string;
  username: string;
  displayName?: string;
  /** The account's id at the network, when known; else it is recognised by its username. */
  remoteId?: string;
  tokens?: ProviderTokens;
}

/** The remote id of an account known by its username only (the sandbox's, or one the CLI connected from tokens). */
export const localRemoteId = (provider: string, username: string) => `${provider}-${username}`;

/** Connects an account as the operator CLI does: the sandbox, or a real one from tokens. Reconnecting refreshes it. */
export async function connectSocialAccount(
  db: Database,
  secrets: SecretBox,
  adapters: ProviderAdapters,
  outbox: Outbox,
  input: ConnectAccountInput,
): Promise<{ connectionId: string }> {
  requireProvider(input.provider);
  const local = adapters.get(input.provider)?.connector.method === 'local';
  if (!local && !input.tokens) {
    throw invalidRequest([{ field: 'accessToken', code: 'required', messageKey: 'detail.required' }]);
  }
  return db.prisma.$transaction(async (tx) => {
    // Without its remote id, an account is the one of that username (its remote id then stands in for the network's).
    const byName = input.remoteId
      ? null
      : await tx.socialAccount.findFirst({ where: { workspaceId: input.workspaceId, provider: input.provider, username: input.username } });
    const remoteId = input.remoteId ?? byName?.remoteId ?? localRemoteId(input.provider, input.username);
    const identity = { remoteId, username: input.username, displayName: input.displayName ?? input.username };
    const [account] = await saveConnectedAccounts(tx, secrets, outbox, input.workspaceId, input.provider, [{ identity, tokens: input.tokens ?? null }]);
    return { connectionId: account!.id };
  });
}

/** The account's tokens, opened; null when it has none (the sandbox, a disconnected account). */
export function openTokens(secrets: SecretBox, account: Pick<SocialAccount, 'encryptedTokens'>): ProviderTokens | null {
  return account.encryptedTokens ? (JSON.parse(secrets.open(account.encryptedTokens)) as ProviderTokens) : null;
}

/** Seals and stores tokens a refresh gave (for the token refresher, inside its transaction holding the account). */
export async function saveRefreshedTokens(tx: Transaction, secrets: SecretBox, accountId: string, tokens: ProviderTokens): Promise<void> {
  await tx.socialAccount.update({ where: { id: accountId }, data: sealedTokens(secrets, tokens) });
}

/**
 * The network no longer accepts the account's tokens: NEEDS_RECONNECT, and `connection.revoked` once (only when
 * the account was ACTIVE). The tokens stay: a refresh token that may still be good is never erased.
 */
export async function markNeedsReconnect(tx: Transaction, outbox: Outbox, accountId: string): Promise<boolean> {
  const changed = await tx.socialAccount.updateManyAndReturn({
    where: { id: accountId, status: 'ACTIVE' },
    data: { status: 'NEEDS_RECONNECT', needsReconnect: true },
  });
  const account = changed[0];
  if (!account) return false;
  await outbox.record(tx, account.workspaceId, 'connection.revoked', {
    connectionId: account.id,
    provider: account.provider,
    username: account.username,
    reason: 'needs_reconnect',
  });
  return true;
}

/**
 * Disconnects the account: REVOKED, its tokens erased, history kept; `connection.revoked` once. Answers the account
 * as it is now and the tokens it had, for revoking them at the network (after the commit, best effort).
 */
export async function revokeSocialAccount(
  db: Database,
  outbox: Outbox,
  connectionId: string,
  workspaceId?: string,
): Promise<{ account: SocialAccount; encryptedTokens: string | null }> {
  return db.prisma.$transaction(async (tx) => {
    const [locked] = isUuid(connectionId)
      ? await tx.$queryRawUnsafe<{ id: string }[]>(
          'SELECT id FROM social_account WHERE id = $1::uuid AND ($2::uuid IS NULL OR workspace_id = $2::uuid) FOR UPDATE',
          connectionId,
          workspaceId ?? null,
        )
      : [];
    if (!locked) throw notFound('socialAccount');
    const before = await tx.socialAccount.findUniqueOrThrow({ where: { id: connectionId } });
    const account = await tx.socialAccount.update({
      where: { id: connectionId },
      data: { status: 'REVOKED', needsReconnect: true, encryptedTokens: null, tokenExpiresAt: null, revokedAt: before.revokedAt ?? new Date() },
    });
    if (before.status !== 'REVOKED') {
      await outbox.record(tx, account.workspaceId, 'connection.revoked', {
        connectionId,
        provider: account.provider,
        username: account.username,
        reason: 'disconnected',
      });
    }
    return { account, encryptedTokens: before.encryptedTokens };
  });
}
