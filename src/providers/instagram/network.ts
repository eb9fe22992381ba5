// Instagram as the service knows it: its rules, its OAuth apps and its adapter (src/providers/network.ts). It connects
// in two ways: Facebook Login, through the Facebook app (`appOf`), and Instagram Login, through the INSTAGRAM_ app.
import { appOrSettings, defineNetwork, type NetworkConfig } from '../network.ts';
import { callbackUrl } from '../oauth2.ts';
import { instagramRules } from './rules.ts';

/** The operator's app of each way of connecting: Facebook's, Instagram's (or the settings that would give it). */
const appsOf = (config: NetworkConfig) => ({
  facebook_login: appOrSettings(config, 'facebook', 'FACEBOOK'),
  instagram_login: appOrSettings(config, 'instagram', 'INSTAGRAM'),
});

export const instagramNetwork = defineNetwork({
  rules: instagramRules,
  connection: { method: 'oauth2' },
  // Instagram Login's app (instagram/login.ts); Facebook Login's is Facebook's.
  app: {
    settingsPrefix: 'INSTAGRAM',
    apiBaseUrl: 'https://graph.instagram.com',
    authBaseUrl: 'https://www.instagram.com',
    tokenBaseUrl: 'https://api.instagram.com',
  },
  appOf: 'facebook',
  adapter: async () => {
    const { createInstagramAdapter } = await import('./adapter.ts');
    return ({ config, publicBaseUrl }) => createInstagramAdapter({ apps: appsOf(config), redirectUri: callbackUrl(publicBaseUrl, 'instagram'), config });
  },
  inbox: {
    adapter: async () => {
      const { createInstagramInbox } = await import('./inbox.ts');
      return ({ config }) => createInstagramInbox({ apps: appsOf(config), config });
    },
  },
});
