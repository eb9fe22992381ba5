// X as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { xRules } from './rules.ts';
import { xInboxUnavailable, xSearchQuota } from './tiers.ts';

export const xNetwork = defineNetwork({
  rules: xRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'X', apiBaseUrl: 'https://api.x.com', authBaseUrl: 'https://x.com/i' },
  adapter: async () => {
    const { createXAdapter } = await import('./adapter.ts');
    return oauthFactory('x', createXAdapter);
  },
  inbox: {
    adapter: async () => {
      const [{ XInbox }, { xHttp }] = await Promise.all([import('./inbox.ts'), import('./api.ts')]);
      return oauthFactory('x', ({ app, config }) => new XInbox(xHttp(config.networkTimeoutMs), app.apiBaseUrl, xSearchQuota(config.xApiTier)));
    },
    unavailableWith: (config) => xInboxUnavailable(config.xApiTier),
  },
});
