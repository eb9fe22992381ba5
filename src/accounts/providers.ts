// The networks as a person connecting accounts sees them: each one's rules, whether posts can be published there,
// whether accounts of it can be connected on this installation, and how.
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { invalidRequest } from '../errors/appError.ts';
import type { Connector } from '../providers/adapter.ts';
import { providerNames, providerRules } from '../providers/catalog.ts';
import { networkNamed } from '../providers/networks.ts';
import type { ProviderRules } from '../providers/rules.ts';
import { appNetworks, publishes, type AccountLinks } from '../providers/registry.ts';
import { inboxSupport, type InboxSupport } from '../inbox/networks.ts';

export interface ProviderEntry extends ProviderRules {
  /** Whether this service publishes to the network: every network it names does (kept for clients that read it). */
  publishing: boolean;
  /** Whether accounts of this network can be connected on this installation (its app credentials are set). */
  configured: boolean;
  /** How they are connected: OAuth 2.0 (POST /social-accounts/connect), credentials or locally (POST /social-accounts). */
  connection: Connector['method'] | null;
  /** The operator's settings its connection needs (its app at the network); empty where it needs none. */
  requiredSettings: string[];
  /** Whether comments on its published posts are collected into the inbox and can be answered, or why not. */
  inbox: InboxSupport;
}

/**
 * The settings of the operator's app at the network (`X_CLIENT_ID`, `X_CLIENT_SECRET`; Facebook's for Instagram);
 * none for Mastodon, Bluesky, the sandbox.
 */
export function appSettingsOf(provider: string): string[] {
  const prefix = networkNamed(appNetworks[provider] ?? provider)?.app?.settingsPrefix;
  return prefix ? [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`] : [];
}

/** GET /providers: any authenticated caller may read the rules; the catalog is one page. */
export function listProviders(actor: Actor, links: AccountLinks): { data: ProviderEntry[]; pagination: { nextCursor: null; hasMore: false } } {
  authorize(actor, 'listProviders');
  const data = providerRules.map((rules) => {
    const connector = links.get(rules.provider)?.connector;
    return {
      ...rules,
      publishing: publishes(rules.provider),
      configured: connector !== undefined,
      connection: connector?.method ?? null,
      requiredSettings: appSettingsOf(rules.provider),
      inbox: inboxSupport(rules.provider),
    };
  });
  return { data, pagination: { nextCursor: null, hasMore: false } };
}

/** 400 for a provider name no network has. */
export function requireProvider(provider: string): void {
  if (!providerNames.includes(provider)) {
    throw invalidRequest([{ field: 'provider', code: 'enum', messageKey: 'detail.enum', params: { allowed: providerNames.join(', ') } }]);
  }
}
