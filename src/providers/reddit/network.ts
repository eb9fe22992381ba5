// Reddit as the service knows it: its rules, its OAuth app (sign-in and tokens at www.reddit.com, the API at
// oauth.reddit.com) and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { redditRules } from './rules.ts';

export const redditNetwork = defineNetwork({
  rules: redditRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'REDDIT', apiBaseUrl: 'https://oauth.reddit.com', authBaseUrl: 'https://www.reddit.com' },
  adapter: async () => {
    const { createRedditAdapter } = await import('./adapter.ts');
    return oauthFactory('reddit', createRedditAdapter);
  },
});
