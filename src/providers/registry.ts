// The network integrations this installation can publish through, and connect accounts of, by provider name: one
// adapter per network of the list (networks.ts) whose factory makes one here (an OAuth network's only where the
// operator gave its app). Each adapter's module is imported here, as the service starts, and nowhere else.
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../crypto/secretBox.ts';
import type { ProviderAdapter } from './adapter.ts';
import type { AdapterDependencies, NetworkConfig } from './network.ts';
import { networks } from './networks.ts';
import { allowedHostsFrom } from '../outbound/guard.ts';
import { limitNetworkAnswers } from './http.ts';

export type ProviderAdapters = ReadonlyMap<string, ProviderAdapter>;

/** How one network's accounts are connected, kept fresh and let go: every adapter is one. */
export type AccountLink = Pick<ProviderAdapter, 'provider' | 'connector' | 'refresh' | 'revoke' | 'rulesFor'>;
export type AccountLinks = ReadonlyMap<string, AccountLink>;

/** Whether posts can be published to the network here, so whether its accounts may connect and be targets: every network of the list. */
export function publishes(network: string): boolean {
  return networks.some((entry) => entry.name === network);
}

/** What the service hands every network's factories (its adapter's and its inbox's). */
export function adapterDependencies(db: Database, secrets: SecretBox, config: NetworkConfig & { publicBaseUrl: string }): AdapterDependencies {
  limitNetworkAnswers(config.networkAnswerMaxBytes);
  return { db, secrets, config, publicBaseUrl: config.publicBaseUrl, allowedHosts: allowedHostsFrom(config.networkAllowedHosts) };
}

export async function createProviderAdapters(dependencies: AdapterDependencies): Promise<ProviderAdapters> {
  const made = await Promise.all(networks.map(async (network) => [network.name, (await network.adapter())(dependencies)] as const));
  return new Map(made.flatMap(([name, adapter]) => (adapter ? [[name, adapter] as const] : [])));
}

/** The networks accounts can be connected to here: those with an adapter (an OAuth network's only where its app is given). */
export function createAccountLinks(adapters: ProviderAdapters): AccountLinks {
  return adapters;
}
