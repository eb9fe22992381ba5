// Pinterest as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { pinterestRules } from './rules.ts';

export const pinterestNetwork = defineNetwork({
  rules: pinterestRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'PINTEREST', apiBaseUrl: 'https://api.pinterest.com', authBaseUrl: 'https://www.pinterest.com' },
  adapter: async () => {
    const { createPinterestAdapter } = await import('./adapter.ts');
    return oauthFactory('pinterest', createPinterestAdapter);
  },
  inbox: { unavailable: "Pinterest's API offers no reading or answering of comments." },
});
