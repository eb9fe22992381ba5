// The sandbox as the service knows it: a network inside the service, for trying the API (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { sandboxRules } from './rules.ts';

export const sandboxNetwork = defineNetwork({
  rules: sandboxRules,
  connection: { method: 'local' },
  adapter: async () => {
    const { SandboxAdapter } = await import('./adapter.ts');
    return ({ db, publicBaseUrl, config }) => new SandboxAdapter(db, publicBaseUrl, config.sandboxQuota);
  },
  inbox: { unavailable: 'The sandbox publishes nowhere, so nobody comments.' },
});
