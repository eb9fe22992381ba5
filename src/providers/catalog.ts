// The networks' published rules (GET /v1/providers), by provider name: what every post is checked against.
import type { AccountRules, ProviderRules, SettingsSchema } from './rules.ts';
import { networkNamed, networks } from './networks.ts';

export const providerRules: readonly ProviderRules[] = networks.map((network) => network.rules);

export const providerNames = networks.map((network) => network.name);

/** Every placement some network offers, each once, in alphabetical order. */
export const placementNames = [...new Set(providerRules.flatMap((rules) => rules.placements.map((placement) => placement.name)))].sort();

export function rulesOf(provider: string): ProviderRules | undefined {
  return networkNamed(provider)?.rules;
}

/**
 * The rules a post for this account is checked against: the limits the network gave for the account where it
 * gives them per account (a Mastodon instance's), else the catalog's. Settings are the catalog's, each `enum` kept to
 * the account's `settingValues` where it has them (a LinkedIn page may not post to CONNECTIONS).
 */
export function rulesForAccount(account: { provider: string; rules?: unknown }): ProviderRules | undefined {
  const catalog = rulesOf(account.provider);
  if (!catalog || !account.rules || typeof account.rules !== 'object') return catalog;
  const { settingValues, ...limits } = account.rules as AccountRules;
  return { ...catalog, ...limits, provider: catalog.provider, settings: narrowedSettings(catalog, settingValues) };
}

/** One schema object per narrowing, so that its compiled validator is kept (settings.ts) rather than compiled per post. */
const narrowings = new Map<string, SettingsSchema>();

/** The catalog's settings with each `enum` the account has values for kept to the values both allow. */
function narrowedSettings({ provider, settings }: ProviderRules, values: AccountRules['settingValues']): SettingsSchema {
  const narrowed = Object.entries(settings.properties).flatMap(([name, property]) => {
    const allowed = values?.[name];
    if (!Array.isArray(property.enum) || !Array.isArray(allowed)) return [];
    const kept = property.enum.filter((value) => allowed.includes(value));
    return kept.length < property.enum.length ? [[name, kept] as const] : [];
  });
  if (!narrowed.length) return settings;
  const key = JSON.stringify([provider, narrowed]);
  let schema = narrowings.get(key);
  if (!schema) {
    const properties = { ...settings.properties };
    for (const [name, kept] of narrowed) properties[name] = { ...properties[name], enum: kept };
    schema = { ...settings, properties };
    narrowings.set(key, schema);
  }
  return schema;
}
