// Which networks have an inbox here: those whose declaration (src/providers/<network>/network.ts, `inbox`) names an
// InboxAdapter module and whose factory makes one (an OAuth network's only where the operator gave its app).
// GET /v1/providers shows `inbox` for every network: available, or why not.
import type { AdapterDependencies } from '../providers/network.ts';
import type { InboxAdapter } from '../providers/inbox.ts';
import { networkNamed, networks } from '../providers/networks.ts';

export type InboxAdapters = ReadonlyMap<string, InboxAdapter>;

const notYet = 'Not collected by this version yet: its API allows it, and it is planned.';

export interface InboxSupport {
  available: boolean;
  /** Why not, where it is not. */
  reason: string | null;
}

export function inboxSupport(provider: string): InboxSupport {
  const inbox = networkNamed(provider)?.inbox;
  if (inbox && 'adapter' in inbox) return { available: true, reason: null };
  return { available: false, reason: inbox?.unavailable ?? notYet };
}

export async function createInboxAdapters(dependencies: AdapterDependencies): Promise<InboxAdapters> {
  const made = await Promise.all(
    networks.map(async (network) => {
      const inbox = network.inbox;
      return [network.name, inbox && 'adapter' in inbox ? (await inbox.adapter())(dependencies) : null] as const;
    }),
  );
  return new Map(made.flatMap(([name, adapter]) => (adapter ? [[name, adapter] as const] : [])));
}
