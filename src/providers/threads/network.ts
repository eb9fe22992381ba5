// Threads as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { threadsRules } from './rules.ts';

export const threadsNetwork = defineNetwork({
  rules: threadsRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'THREADS', apiBaseUrl: 'https://graph.threads.net', authBaseUrl: 'https://threads.net' },
  adapter: async () => {
    const { createThreadsAdapter } = await import('./adapter.ts');
    return oauthFactory('threads', createThreadsAdapter);
  },
  inbox: {
    adapter: async () => {
      const [{ ThreadsInbox }, { threadsGraphs }] = await Promise.all([import('./inbox.ts'), import('./adapter.ts')]);
      return oauthFactory('threads', (dependencies) => new ThreadsInbox(threadsGraphs(dependencies).graph));
    },
  },
});
