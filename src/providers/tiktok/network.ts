// TikTok as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { tiktokRules } from './rules.ts';

export const tiktokNetwork = defineNetwork({
  rules: tiktokRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'TIKTOK', apiBaseUrl: 'https://open.tiktokapis.com', authBaseUrl: 'https://www.tiktok.com' },
  adapter: async () => {
    const { createTikTokAdapter } = await import('./adapter.ts');
    return oauthFactory('tiktok', createTikTokAdapter);
  },
  inbox: { unavailable: "TikTok's API offers no reading or answering of comments." },
});
