// Telegram as the service knows it: a channel or group an account's bot posts to, connected with the bot's token and
// the chat (src/providers/network.ts). The Bot API is at fixed hosts: TELEGRAM_API_BASE_URL points elsewhere (a
// self-hosted Bot API server, a test's stand-in).
import { defineNetwork } from '../network.ts';
import { telegramRules } from './rules.ts';

export const telegramNetwork = defineNetwork({
  rules: telegramRules,
  connection: {
    method: 'credentials',
    fields: [
      {
        name: 'botToken',
        label: 'Bot token',
        secret: true,
        format: 'text',
        required: true,
        maxLength: 100,
        // https://core.telegram.org/bots/api#authorizing-your-bot: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
        pattern: '^[0-9]{1,20}:[A-Za-z0-9_-]{20,80}$',
        help: 'The token @BotFather gave when the bot was made (/newbot, or /token for an existing bot).',
      },
      {
        name: 'chat',
        label: 'Channel or group',
        secret: false,
        format: 'text',
        required: true,
        maxLength: 40,
        // https://core.telegram.org/bots/api#sendmessage `chat_id`: "Unique identifier for the target chat or username of the target channel (in the format @channelusername)"
        pattern: '^(@[A-Za-z][A-Za-z0-9_]{3,31}|-?[0-9]{1,20})$',
        help: 'The channel’s @username, or the numeric id of a group or private channel. Add the bot as an administrator allowed to post there first.',
      },
    ],
  },
  apiBaseUrl: 'https://api.telegram.org',
  adapter: async () => {
    const { TelegramAdapter } = await import('./adapter.ts');
    return ({ config }) => new TelegramAdapter({ baseUrl: config.apiBaseUrls.telegram!, timeoutMs: config.networkTimeoutMs });
  },
});
