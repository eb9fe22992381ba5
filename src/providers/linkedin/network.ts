// LinkedIn as the service knows it: its rules, its OAuth app, its adapter and its inbox (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { linkedinRules } from './rules.ts';

export const linkedinNetwork = defineNetwork({
  rules: linkedinRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'LINKEDIN', apiBaseUrl: 'https://api.linkedin.com', authBaseUrl: 'https://www.linkedin.com/oauth' },
  adapter: async () => {
    const { createLinkedInAdapter } = await import('./adapter.ts');
    return oauthFactory('linkedin', createLinkedInAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createLinkedInInbox } = await import('./inbox.ts');
      return oauthFactory('linkedin', createLinkedInInbox);
    },
  },
});
