// What every adapter says of its network, said once: the rules (which name the network), how it keeps from posting
// twice, and the quotas charged before each publish.
import type { DuplicateGuard, ProviderAdapter } from '../adapter.ts';
import type { ProviderRules } from '../rules.ts';
import type { Quota } from './quotas.ts';

export interface NetworkTraits {
  rules: ProviderRules;
  duplicates: DuplicateGuard;
  quotas?: readonly Quota[];
}

export abstract class NetworkAdapter implements Pick<ProviderAdapter, 'provider' | 'rules' | 'duplicates' | 'quotas'> {
  readonly provider: string;
  readonly rules: ProviderRules;
  readonly duplicates: DuplicateGuard;
  readonly quotas: readonly Quota[] | undefined;

  constructor(traits: NetworkTraits) {
    this.provider = traits.rules.provider;
    this.rules = traits.rules;
    this.duplicates = traits.duplicates;
    this.quotas = traits.quotas;
  }
}
