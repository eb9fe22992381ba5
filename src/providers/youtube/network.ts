// YouTube as the service knows it: its rules, its OAuth app, its adapter and its inbox (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { youtubeRules } from './rules.ts';

export const youtubeNetwork = defineNetwork({
  rules: youtubeRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'YOUTUBE',
    apiBaseUrl: 'https://www.googleapis.com',
    authBaseUrl: 'https://accounts.google.com',
    tokenBaseUrl: 'https://oauth2.googleapis.com',
  },
  adapter: async () => {
    const { createYouTubeAdapter } = await import('./adapter.ts');
    return oauthFactory('youtube', createYouTubeAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createYouTubeInbox } = await import('./inbox.ts');
      return oauthFactory('youtube', createYouTubeInbox);
    },
  },
});
