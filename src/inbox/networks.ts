// Which networks have an inbox here: those whose declaration (src/providers/<network>/network.ts, `inbox`) names an
// InboxAdapter module and whose factory makes one (an OAuth network's only where the operator gave its app), unless
// the operator's settings leave it without one (`unavailableWith`: X's Free tier). GET /v1/providers shows `inbox`
// for every network: available, or why not.
import type { AdapterDependencies, NetworkConfig } from '../providers/network.ts';
import type { InboxAdapter } from '../providers/inbox.ts';
import { networkNamed, networks } from '../providers/networks.ts';

export type InboxAdapters = ReadonlyMap<string, InboxAdapter>;

const notYet = 'Not collected by this version yet: its API allows it, and it is planned.';

export interface InboxSupport {
  available: boolean;
  /** Why not, where it is not. */
  reason: string | null;
}

export function inboxSupport(provider: string, config: NetworkConfig): InboxSupport {
  const inbox = networkNamed(provider)?.inbox;
  if (!inbox || !('adapter' in inbox)) return { available: false, reason: inbox?.unavailable ?? notYet };
  const reason = inbox.unavailableWith?.(config) ?? null;
  return { available: reason === null, reason };
}

export async function createInboxAdapters(dependencies: AdapterDependencies): Promise<InboxAdapters> {
  const made = await Promise.all(
    networks.map(async (network) => {
      const inbox = network.inbox;
      if (!inbox || !('adapter' in inbox) || !inboxSupport(network.name, dependencies.config).available) return [network.name, null] as const;
      return [network.name, (await inbox.adapter())(dependencies)] as const;
    }),
  );
  return new Map(made.flatMap(([name, adapter]) => (adapter ? [[name, adapter] as const] : [])));
}
