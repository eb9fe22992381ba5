// Instagram as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { instagramRules } from './rules.ts';

export const instagramNetwork = defineNetwork({
  rules: instagramRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'INSTAGRAM', apiBaseUrl: 'https://graph.facebook.com', authBaseUrl: 'https://www.facebook.com' },
  appOf: 'facebook',
  adapter: async () => {
    const { createInstagramAdapter } = await import('./adapter.ts');
    return oauthFactory('facebook', createInstagramAdapter);
  },
});
