// The lifecycle of an account's tokens at its network: refreshed ahead of expiry by a background job, and once
// when the network refuses an access token while publishing.
//
// One refresh per account at a time, across processes: networks rotate refresh tokens, so two concurrent
// refreshes would spend the same refresh token twice and the loser would lose the account. A refresh holds an
// advisory lock on the account for its transaction; whoever comes second finds the tokens changed and uses them.
// Refreshes go through the network's account link (src/providers/registry.ts), so networks that can be connected
// before their publishing lands (X) are kept fresh too.
// A failed refresh never erases tokens: a network that cannot be reached leaves them as they were, and one
// that refuses them (revoked, invalid grant) marks the account NEEDS_RECONNECT, keeping the refresh token in case
// the refusal was the network's mistake. `connection.revoked` is emitted once, when the account leaves ACTIVE.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { Outbox } from '../events/outbox.ts';
import type { AccountLinks } from '../providers/registry.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import { ProviderError, type ProviderTokens } from '../providers/adapter.ts';
import { AppError } from '../errors/appError.ts';
import { markNeedsReconnect, openTokens, saveRefreshedTokens } from './socialAccounts.ts';

interface Deps {
  db: Database;
  secrets: SecretBox;
  /** How each network's tokens are refreshed (adapters, and networks that can be connected but not yet published to). */
  links: AccountLinks;
  outbox: Outbox;
  logger: Logger;
  /** The longest a network's refresh may take (the transaction holding the account waits that long). */
  timeoutMs: number;
}

export type RefreshResult =
  | { status: 'refreshed' | 'current'; tokens: ProviderTokens }
  /** The network refused the tokens: the account now needs reconnecting. */
  | { status: 'rejected'; reason: string };

/** Tokens due for a refresh this long before they expire. */
export const refreshAheadMs = 15 * 60_000;

export class TokenKeeper {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /**
   * Refreshes the account's tokens unless another caller already did: `seen` is the sealed tokens the caller
   * worked with (when they changed meanwhile, the current ones are returned), `unlessValidFor` skips accounts whose
   * tokens stay valid that long. A network that cannot be reached throws its transient ProviderError.
   */
  async refresh(accountId: string, options: { seen?: string | null; unlessValidFor?: number } = {}): Promise<RefreshResult> {
    const { db, secrets, links, outbox, timeoutMs } = this.#deps;
    return db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`token-refresh:${accountId}`}, 0))`;
        const account = await tx.socialAccount.findUnique({ where: { id: accountId } });
        const tokens = account ? openTokens(secrets, account) : null;
        if (!account || !tokens || account.status === 'REVOKED') return { status: 'rejected', reason: 'The account is disconnected.' };
        if (account.status !== 'ACTIVE') return { status: 'rejected', reason: 'The account needs reconnecting.' };
        const changedMeanwhile = options.seen !== undefined && options.seen !== account.encryptedTokens;
        const expiresAt = account.tokenExpiresAt?.getTime();
        const stillValid = options.unlessValidFor !== undefined && (expiresAt === undefined || expiresAt > Date.now() + options.unlessValidFor);
        const link = links.get(account.provider);
        if (changedMeanwhile || stillValid || !link?.refresh) return { status: 'current', tokens };
        let fresh: ProviderTokens;
        try {
          fresh = await link.refresh({ id: account.id, provider: account.provider, username: account.username, remoteId: account.remoteId, tokens });
        } catch (error) {
          if (!(error instanceof ProviderError) || error.transient) throw error;
          await markNeedsReconnect(tx, outbox, account.id);
          this.#deps.logger.warn(
            { connectionId: account.id, provider: account.provider },
            'the network refused to refresh the account tokens; it needs reconnecting',
          );
          return { status: 'rejected', reason: error.message };
        }
        // A network that answers without a new refresh token keeps the old one valid.
        const kept: ProviderTokens = { ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken };
        await saveRefreshedTokens(tx, secrets, account.id, kept);
        this.#deps.logger.info({ connectionId: account.id, provider: account.provider }, 'tokens refreshed');
        return { status: 'refreshed', tokens: kept };
      },
      { timeout: timeoutMs + 10_000, maxWait: timeoutMs + 10_000 },
    );
  }

  /**
   * The operator's `accounts refresh`: refreshes tokens that expire within `refreshAheadMs` (the background job's
   * rule, so processes doing it at once refresh once), or, with `force`, the tokens as they are now.
   */
  async refreshAccount(accountId: string, options: { force?: boolean } = {}): Promise<RefreshResult> {
    const account = await this.#deps.db.prisma.socialAccount.findUnique({ where: { id: accountId }, select: { encryptedTokens: true } });
    if (!account) throw new AppError('NOT_FOUND', 'notFound', { kind: 'socialAccount' });
    return this.refresh(accountId, options.force ? { seen: account.encryptedTokens } : { unlessValidFor: refreshAheadMs });
  }

  /** Refreshes every active account whose tokens expire within `refreshAheadMs`; one failing account does not stop the rest. */
  async refreshExpiring(): Promise<number> {
    const due = await this.#deps.db.prisma.socialAccount.findMany({
      where: { status: 'ACTIVE', encryptedTokens: { not: null }, tokenExpiresAt: { lt: new Date(Date.now() + refreshAheadMs) } },
      select: { id: true },
      orderBy: { tokenExpiresAt: 'asc' },
      take: 500,
    });
    let refreshed = 0;
    for (const { id } of due) {
      try {
        if ((await this.refresh(id, { unlessValidFor: refreshAheadMs })).status === 'refreshed') refreshed++;
      } catch (error) {
        this.#deps.logger.warn({ connectionId: id, err: error instanceof ProviderError ? error.message : error }, 'token refresh failed; the tokens are kept');
      }
    }
    return refreshed;
  }

  /** The network refused tokens it cannot refresh: NEEDS_RECONNECT (tokens kept), `connection.revoked` once. */
  async markNeedsReconnect(accountId: string): Promise<void> {
    await this.#deps.db.prisma.$transaction((tx) => markNeedsReconnect(tx, this.#deps.outbox, accountId));
  }

  /**
   * A call to the account's network with its tokens, as a publish makes it: an access token the network refuses is
   * refreshed once (where the network refreshes tokens) and the call made again; refused again, or not refreshable,
   * the account needs reconnecting and the call fails with ProviderError ACCOUNT_NEEDS_RECONNECT.
   */
  async callWithTokens<Result>(
    account: { id: string; encryptedTokens: string | null },
    refreshable: boolean,
    call: (tokens: ProviderTokens | null) => Promise<Result>,
  ): Promise<Result> {
    const tokens = account.encryptedTokens ? openTokens(this.#deps.secrets, account) : null;
    let refusal: ProviderError;
    try {
      return await call(tokens);
    } catch (error) {
      if (!(error instanceof ProviderError && error.tokenRejected)) throw error;
      refusal = error;
    }
    if (refreshable) {
      const refreshed = await this.refresh(account.id, { seen: account.encryptedTokens });
      if (refreshed.status === 'rejected') throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', refreshed.reason, false);
      try {
        return await call(refreshed.tokens);
      } catch (error) {
        if (!(error instanceof ProviderError && error.tokenRejected)) throw error;
        refusal = error;
      }
    }
    await this.markNeedsReconnect(account.id);
    throw new ProviderError('ACCOUNT_NEEDS_RECONNECT', refusal.message, false);
  }
}

/** Every five minutes, one worker refreshes the tokens that expire soon. */
export async function startTokenRefresh(boss: PgBoss, tokens: TokenKeeper): Promise<void> {
  await boss.schedule(queueNames.refreshTokens, '*/5 * * * *');
  await boss.work(queueNames.refreshTokens, async () => {
    await tokens.refreshExpiring();
  });
}
