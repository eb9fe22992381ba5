// The networks' published rules (GET /v1/providers), by provider name: what every post is checked against.
import type { ProviderRules } from './rules.ts';
import { networkNamed, networks } from './networks.ts';

export const providerRules: readonly ProviderRules[] = networks.map((network) => network.rules);

export const providerNames = networks.map((network) => network.name);

export function rulesOf(provider: string): ProviderRules | undefined {
  return networkNamed(provider)?.rules;
}

/**
 * The rules a post for this account is checked against: the limits the network gave for the account where it
 * gives them per account (a Mastodon instance's), else the catalog's. Settings always come from the catalog.
 */
export function rulesForAccount(account: { provider: string; rules?: unknown }): ProviderRules | undefined {
  const catalog = rulesOf(account.provider);
  if (!catalog || !account.rules || typeof account.rules !== 'object') return catalog;
  return { ...catalog, ...(account.rules as Partial<ProviderRules>), provider: catalog.provider, settings: catalog.settings };
}
