// Facebook Pages as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { facebookRules } from './rules.ts';

export const facebookNetwork = defineNetwork({
  rules: facebookRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'FACEBOOK',
    apiBaseUrl: 'https://graph.facebook.com',
    authBaseUrl: 'https://www.facebook.com',
    uploadBaseUrl: 'https://rupload.facebook.com',
  },
  adapter: async () => {
    const { createFacebookAdapter } = await import('./adapter.ts');
    return oauthFactory('facebook', createFacebookAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createFacebookInbox } = await import('./inbox.ts');
      return oauthFactory('facebook', createFacebookInbox);
    },
  },
});
