// What one account may choose for its network's settings, read from the network (Pinterest's boards, TikTok's privacy
// levels and switches) through the adapter's optional `settingOptions`: networks without per-account choices answer
// `{}`. The account's tokens are used, never shown; a refused token is handled as a publish handles it. Options that
// depend on another setting (Reddit's flairs on the subreddit) are read for the values the caller gives, each checked
// against that setting's schema first.
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { AppError, notFound } from '../errors/appError.ts';
import { isUuid } from '../ids.ts';
import { invalidRequest } from '../errors/appError.ts';
import { detailsOf } from '../errors/schemaDetails.ts';
import { ProviderError, type GivenSettings, type SettingOptions } from '../providers/adapter.ts';
import { networkNamed } from '../providers/networks.ts';
import type { SettingsSchema } from '../providers/rules.ts';
import { validatorOf } from '../providers/settings.ts';
import { shownReason } from '../providers/shownReason.ts';
import type { Services } from '../runtime.ts';

/** What the read uses of the services; NETWORK_TIMEOUT_MS bounds the whole read (Pinterest's boards come page by page). */
export type SettingOptionsServices = Pick<Services, 'db' | 'adapters' | 'tokens' | 'config'>;

const givenSchemas = new WeakMap<SettingsSchema, object>();

/** What may be given: any of the network's settings, each as its schema says (a value for a setting the network has not is not its: left out). */
function givenSchemaOf(settings: SettingsSchema): object {
  let schema = givenSchemas.get(settings);
  if (!schema) {
    schema = { type: 'object', properties: settings.properties };
    givenSchemas.set(settings, schema);
  }
  return schema;
}

/** GET /social-accounts/{id}/setting-options: the account's own choices per setting name, for the settings' values given. */
export async function readSettingOptions(services: SettingOptionsServices, actor: Actor, id: string, given: GivenSettings = {}): Promise<SettingOptions> {
  authorize(actor, 'getSettingOptions');
  const account = isUuid(id) ? await services.db.prisma.socialAccount.findFirst({ where: { id, workspaceId: actor.workspaceId } }) : null;
  if (!account) throw notFound('socialAccount');
  const settings = networkNamed(account.provider)?.rules.settings;
  const own = Object.fromEntries(Object.entries(given).filter(([name]) => settings && Object.hasOwn(settings.properties, name)));
  const validate = settings && validatorOf(givenSchemaOf(settings));
  if (validate && !validate(own)) throw invalidRequest(detailsOf(validate.errors ?? []));
  const adapter = services.adapters.get(account.provider);
  if (!adapter?.settingOptions) return {};
  const provider = networkNamed(account.provider)?.displayName ?? account.provider;
  if (account.status !== 'ACTIVE') throw new AppError('CONFLICT', 'accountInactive', { status: account.status, provider });
  const timeout = AbortSignal.timeout(services.config.networkTimeoutMs);
  try {
    return await services.tokens.callWithTokens(account, adapter.refresh !== undefined, (tokens) =>
      adapter.settingOptions!({ id: account.id, provider: account.provider, username: account.username, remoteId: account.remoteId, tokens }, timeout, own),
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
