// The networks as a person connecting accounts sees them: each one's rules, whether posts can be published there,
// whether accounts of it can be connected on this installation, and how.
import type { Actor } from '../access/actor.ts';
import { authorize } from '../access/operations.ts';
import { invalidRequest } from '../errors/appError.ts';
import type { Connector } from '../providers/adapter.ts';
import { providerNames, providerRules } from '../providers/catalog.ts';
import type { CredentialField, NetworkConfig } from '../providers/network.ts';
import { networkNamed } from '../providers/networks.ts';
import type { ProviderRules } from '../providers/rules.ts';
import { publishes, type AccountLinks } from '../providers/registry.ts';

/** How accounts of a network are connected here, and for a credential network what a person fills in. */
export interface ConnectionEntry {
  /** OAuth 2.0 (POST /social-accounts/connect), credentials or locally (POST /social-accounts). */
  method: Connector['method'];
  /** The credential network's fields (`credentials.<name>` of POST /social-accounts); empty for the others. */
  fields: readonly CredentialField[];
}
import { inboxSupport, type InboxSupport } from '../inbox/networks.ts';

export interface ProviderEntry extends ProviderRules {
  /** Whether this service publishes to the network: every network it names does (kept for clients that read it). */
  publishing: boolean;
  /** Whether accounts of this network can be connected on this installation (its app credentials are set). */
  configured: boolean;
  /** How they are connected; null where they cannot be here (not configured). */
  connection: ConnectionEntry | null;
  /** The operator's settings its connection needs (its app at the network); empty where it needs none. */
  requiredSettings: string[];
  /** The ways of connecting set up here where the network offers several (Instagram's), the default first; else empty. */
  connectionMethods: string[];
  /** Whether comments on its published posts are collected into the inbox and can be answered, or why not. */
  inbox: InboxSupport;
}

/**
 * The settings of the operator's app at the network (`X_CLIENT_ID`, `X_CLIENT_SECRET`; Facebook's for Instagram);
 * none for Mastodon, Bluesky, the sandbox.
 */
export function appSettingsOf(provider: string): string[] {
  const app = networkNamed(networkNamed(provider)?.appOf ?? provider)?.app;
  if (!app) return [];
  const prefix = app.settingsPrefix;
  return [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`, ...(app.botToken ? [`${prefix}_BOT_TOKEN`] : [])];
}

/** GET /providers: any authenticated caller may read the rules; the catalog is one page. */
export function listProviders(
  actor: Actor,
  links: AccountLinks,
  config: NetworkConfig,
): { data: ProviderEntry[]; pagination: { nextCursor: null; hasMore: false } } {
  authorize(actor, 'listProviders');
  const data = providerRules.map((rules) => {
    const connector = links.get(rules.provider)?.connector;
    const profile = networkNamed(rules.provider)?.connection;
    return {
      ...rules,
      publishing: publishes(rules.provider),
      configured: connector !== undefined,
      connection: connector ? { method: connector.method, fields: profile?.method === 'credentials' ? profile.fields : [] } : null,
      requiredSettings: appSettingsOf(rules.provider),
      connectionMethods:
        connector?.method === 'oauth2' ? (connector.methods ?? []).filter((method) => !method.missingSettings?.length).map((method) => method.name) : [],
      inbox: inboxSupport(rules.provider, config),
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
