// The network integrations this installation can publish through, by provider name.
import type { Database } from '../db/database.ts';
import type { ProviderAdapter } from './adapter.ts';
import { SandboxAdapter } from './sandbox/adapter.ts';

export type ProviderAdapters = ReadonlyMap<string, ProviderAdapter>;

export function createProviderAdapters(db: Database, publicBaseUrl: string): ProviderAdapters {
  return new Map<string, ProviderAdapter>([['sandbox', new SandboxAdapter(db, publicBaseUrl)]]);
}
