// Mastodon as the service knows it: an app registered per instance the person names (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { mastodonRules } from './rules.ts';

export const mastodonNetwork = defineNetwork({
  rules: mastodonRules,
  connection: { method: 'oauth2' },
  adapter: async () => {
    const [{ MastodonAdapter }, { mastodonHttp }] = await Promise.all([import('./adapter.ts'), import('./api.ts')]);
    return ({ db, secrets, publicBaseUrl, config, allowedHosts }) =>
      new MastodonAdapter({ db, secrets, publicBaseUrl, http: mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs }) });
  },
  inbox: {
    adapter: async () => {
      const [{ MastodonInbox }, { mastodonHttp }] = await Promise.all([import('./inbox.ts'), import('./api.ts')]);
      return ({ config, allowedHosts }) => new MastodonInbox(mastodonHttp({ allowedHosts, timeoutMs: config.networkTimeoutMs }));
    },
  },
});
