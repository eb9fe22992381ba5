// The lifecycle of an account's tokens at its network: refreshed ahead of expiry by a background job, and once
// when the network refuses an access token while publishing.
//
// One refresh per account at a time, across processes: networks rotate refresh tokens, so two concurrent
// refreshes would spend the same refresh token twice and the loser would lose the account. A refresh holds an
// advisory lock on the account for its transaction; whoever comes second finds the tokens changed and uses them.
// A failed refresh never erases tokens: a network that cannot be reached leaves them as they were, and one
// that refuses them (revoked, invalid grant) marks the account NEEDS_RECONNECT, keeping the refresh token in case
// the refusal was the network's mistake. `connection.revoked` is emitted once, when the account leaves ACTIVE.
import type pg from 'pg';
import { withPoolTransaction, type Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { Logger } from '../logger.ts';
import type { Outbox } from '../events/outbox.ts';
import { viaClient } from '../events/outbox.ts';
import type { ProviderAdapters } from '../providers/registry.ts';
import { queueNames, type PgBoss } from '../jobs/boss.ts';
import { ProviderError, type ConnectedAccount, type ProviderTokens } from '../providers/adapter.ts';

interface Deps {
  db: Database;
  secrets: SecretBox;
  adapters: ProviderAdapters;
  outbox: Outbox;
  logger: Logger;
}

interface AccountRow {
  id: string;
  workspace_id: string;
  provider: string;
  username: string;
  remote_id: string | null;
  status: string;
  encrypted_tokens: string | null;
  token_expires_at: Date | null;
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
    const { db, secrets, adapters } = this.#deps;
    return withPoolTransaction(db.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`token-refresh:${accountId}`]);
      const { rows } = await client.query<AccountRow>(
        `SELECT id, workspace_id, provider, username, remote_id, status, encrypted_tokens, token_expires_at FROM social_account WHERE id = $1`,
        [accountId],
      );
      const row = rows[0];
      if (!row?.encrypted_tokens || row.status === 'REVOKED') return { status: 'rejected', reason: 'The account is disconnected.' };
      const tokens = JSON.parse(secrets.open(row.encrypted_tokens)) as ProviderTokens;
      if (row.status !== 'ACTIVE') return { status: 'rejected', reason: 'The account needs reconnecting.' };
      const changedMeanwhile = options.seen !== undefined && options.seen !== row.encrypted_tokens;
      const stillValid = options.unlessValidFor !== undefined && (!row.token_expires_at || row.token_expires_at.getTime() > Date.now() + options.unlessValidFor);
      if (changedMeanwhile || stillValid) return { status: 'current', tokens };
      const adapter = adapters.get(row.provider);
      if (!adapter?.refresh) return { status: 'current', tokens };
      const account: ConnectedAccount = { id: row.id, provider: row.provider, username: row.username, remoteId: row.remote_id, tokens };
      let fresh: ProviderTokens;
      try {
        fresh = await adapter.refresh(account);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.transient) throw error;
        await this.#needsReconnect(client, row, error.message);
        return { status: 'rejected', reason: error.message };
      }
      // A network that answers without a new refresh token keeps the old one valid.
      const kept: ProviderTokens = { ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken };
      await client.query(`UPDATE social_account SET encrypted_tokens = $2, token_expires_at = $3 WHERE id = $1`, [
        row.id,
        secrets.seal(JSON.stringify(kept)),
        kept.expiresAt ? new Date(kept.expiresAt) : null,
      ]);
      this.#deps.logger.info({ connectionId: row.id, provider: row.provider }, 'tokens refreshed');
      return { status: 'refreshed', tokens: kept };
    });
  }

  /** Refreshes every active account whose tokens expire within `refreshAheadMs`; one failing account does not stop the rest. */
  async refreshExpiring(): Promise<number> {
    const { rows } = await this.#deps.db.pool.query<{ id: string }>(
      `SELECT id FROM social_account WHERE status = 'ACTIVE' AND encrypted_tokens IS NOT NULL AND token_expires_at < now() + make_interval(secs => $1)
       ORDER BY token_expires_at LIMIT 500`,
      [refreshAheadMs / 1000],
    );
    let refreshed = 0;
    for (const { id } of rows) {
      try {
        if ((await this.refresh(id, { unlessValidFor: refreshAheadMs })).status === 'refreshed') refreshed++;
      } catch (error) {
        this.#deps.logger.warn({ connectionId: id, err: error instanceof ProviderError ? error.message : error }, 'token refresh failed; the tokens are kept');
      }
    }
    return refreshed;
  }

  /** Marks the account NEEDS_RECONNECT (tokens kept), with `connection.revoked` when it was ACTIVE until now. */
  async markNeedsReconnect(accountId: string, reason: string): Promise<void> {
    await withPoolTransaction(this.#deps.db.pool, async (client) => {
      const { rows } = await client.query<AccountRow>(`SELECT id, workspace_id, provider, username, status FROM social_account WHERE id = $1 FOR UPDATE`, [accountId]);
      if (rows[0]) await this.#needsReconnect(client, rows[0], reason);
    });
  }

  async #needsReconnect(client: pg.PoolClient, row: Pick<AccountRow, 'id' | 'workspace_id' | 'provider' | 'username' | 'status'>, reason: string): Promise<void> {
    if (row.status !== 'ACTIVE') return;
    await client.query(`UPDATE social_account SET status = 'NEEDS_RECONNECT', needs_reconnect = true WHERE id = $1`, [row.id]);
    await this.#deps.outbox.recordAll(viaClient(client), [
      { workspaceId: row.workspace_id, type: 'connection.revoked', data: { connectionId: row.id, provider: row.provider, username: row.username, reason } },
    ]);
    this.#deps.logger.warn({ connectionId: row.id, provider: row.provider }, 'the network refused the account tokens; it needs reconnecting');
  }
}

/** Every five minutes, one worker refreshes the tokens that expire soon. */
export async function startTokenRefresh(boss: PgBoss, tokens: TokenKeeper): Promise<void> {
  await boss.schedule(queueNames.refreshTokens, '*/5 * * * *');
  await boss.work(queueNames.refreshTokens, async () => {
    await tokens.refreshExpiring();
  });
}
