// Discord as the service knows it: its rules, the operator's application with its bot (sign-in at discord.com, the
// API at discord.com/api/v10, the bot's token as DISCORD_BOT_TOKEN) and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { discordRules } from './rules.ts';

export const discordNetwork = defineNetwork({
  rules: discordRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'DISCORD', apiBaseUrl: 'https://discord.com/api/v10', authBaseUrl: 'https://discord.com', botToken: true },
  adapter: async () => {
    const { createDiscordAdapter } = await import('./adapter.ts');
    return oauthFactory('discord', createDiscordAdapter);
  },
});
