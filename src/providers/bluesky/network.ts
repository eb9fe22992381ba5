// Bluesky as the service knows it: accounts connect with an app password at their PDS (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { blueskyRules } from './rules.ts';

export const blueskyNetwork = defineNetwork({
  rules: blueskyRules,
  connection: {
    method: 'credentials',
    fields: [
      {
        name: 'identifier',
        label: 'Handle or email',
        secret: false,
        format: 'text',
        required: true,
        maxLength: 320,
        help: 'The handle (alice.bsky.social) or the email address of the account.',
      },
      {
        name: 'appPassword',
        label: 'App password',
        secret: true,
        format: 'text',
        required: true,
        maxLength: 200,
        help: 'An app password (Settings → Privacy and security → App passwords), never the account password.',
      },
      {
        name: 'service',
        label: 'Server (PDS)',
        secret: false,
        format: 'url',
        required: false,
        maxLength: 2000,
        help: 'The URL of the account’s server; leave empty for https://bsky.social.',
      },
    ],
  },
  adapter: async () => {
    const { BlueskyAdapter } = await import('./adapter.ts');
    return ({ config, allowedHosts }) => new BlueskyAdapter({ allowedHosts, timeoutMs: config.networkTimeoutMs });
  },
  inbox: {
    adapter: async () => {
      const [{ BlueskyInbox }, { BlueskyClient }] = await Promise.all([import('./inbox.ts'), import('./client.ts')]);
      return ({ config, allowedHosts }) => new BlueskyInbox(new BlueskyClient({ allowedHosts, timeoutMs: config.networkTimeoutMs }));
    },
  },
});
