// Instagram as the service knows it: its rules, its OAuth apps and its adapter (src/providers/network.ts). It connects
// in two ways: Facebook Login, through the Facebook app (`appOf`), and Instagram Login, through the INSTAGRAM_ app.
import { appOrSettings, defineNetwork } from '../network.ts';
import { callbackUrl } from '../oauth2.ts';
import { instagramRules } from './rules.ts';

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
    return ({ config, publicBaseUrl }) =>
      createInstagramAdapter({
        apps: { facebook_login: appOrSettings(config, 'facebook', 'FACEBOOK'), instagram_login: appOrSettings(config, 'instagram', 'INSTAGRAM') },
        redirectUri: callbackUrl(publicBaseUrl, 'instagram'),
        config,
      });
  },
});
