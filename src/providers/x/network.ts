// X as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { xRules } from './rules.ts';

export const xNetwork = defineNetwork({
  rules: xRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'X', apiBaseUrl: 'https://api.x.com', authBaseUrl: 'https://x.com/i' },
  adapter: async () => {
    const { createXAdapter } = await import('./adapter.ts');
    return oauthFactory('x', createXAdapter);
  },
});
