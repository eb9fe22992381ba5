// What one account may choose for its network's settings, read from the network (Pinterest's boards, TikTok's privacy
// levels and switches) through the adapter's optional `settingOptions`: networks without per-account choices answer
// `{}`. The account's tokens are used, never shown; a refused token is handled as a publish handles it.
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { AppError, notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { ProviderError, type SettingOptions } from '../providers/adapter.ts';
import { networkNamed } from '../providers/networks.ts';
import { shownReason } from '../providers/shownReason.ts';
import type { Services } from '../runtime.ts';

/** What the read uses of the services; NETWORK_TIMEOUT_MS bounds the whole read (Pinterest's boards come page by page). */
export type SettingOptionsServices = Pick<Services, 'db' | 'adapters' | 'tokens' | 'config'>;

/** GET /social-accounts/{id}/setting-options: the account's own choices per setting name. */
export async function readSettingOptions(services: SettingOptionsServices, actor: Actor, id: string): Promise<SettingOptions> {
  authorize(actor, 'getSettingOptions');
  const account = isUuid(id) ? await services.db.prisma.socialAccount.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!account) throw notFound('socialAccount');
  const adapter = services.adapters.get(account.provider);
  if (!adapter?.settingOptions) return {};
  const provider = networkNamed(account.provider)?.displayName ?? account.provider;
  if (account.status !== 'ACTIVE') throw new AppError('CONFLICT', 'accountInactive', { status: account.status, provider });
  const timeout = AbortSignal.timeout(services.config.networkTimeoutMs);
  try {
    return await services.tokens.callWithTokens(account, adapter.refresh !== undefined, (tokens) =>
      adapter.settingOptions!({ id: account.id, provider: account.provider, username: account.username, remoteId: account.remoteId, tokens }, timeout),
    );
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'ACCOUNT_NEEDS_RECONNECT')
      throw new AppError('CONFLICT', 'accountNeedsReconnect', { provider, reason: error.message }, { cause: error });
    if (error instanceof ProviderError || timeout.aborted) {
      const reason = error instanceof ProviderError ? error.message : shownReason(`no answer within ${services.config.networkTimeoutMs / 1000} s`);
      throw new AppError('PROVIDER_UNAVAILABLE', 'networkReadFailed', { provider, reason }, { cause: error });
    }
    throw error;
  }
}
