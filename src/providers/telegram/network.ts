// Telegram as the service knows it: a channel or group an account's bot posts to, connected with the bot's token and
// the chat (src/providers/network.ts). The Bot API is at fixed hosts: TELEGRAM_API_BASE_URL points elsewhere (a
// self-hosted Bot API server, a test's stand-in).
//
// Telegram's limits for a bot's messages, from the Bot API reference (https://core.telegram.org/bots/api):
//   sendMessage `text` 1-4096 characters; a media message's `caption` 0-1024 (#sendmessage, #sendphoto, #sendvideo)
//   sendMediaGroup: an album of 2-10 photos and videos (#sendmediagroup)
//   photos up to 10 MB, width + height at most 10,000, the ratio of the sides at most 20 (#sendphoto)
//   other files up to 50 MB through the Bot API at api.telegram.org (#sending-files)
//   20 messages a minute to one group or channel (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this)
import { defineNetwork } from '../network.ts';
import { MB, noSettings, type ProviderRules } from '../rules.ts';

export const telegramRules: ProviderRules = {
  provider: 'telegram',
  displayName: 'Telegram',
  placements: [
    {
      name: 'feed',
      description: 'A message in the channel or group: text, or up to 10 photos and videos as one album with the text as its caption.',
      caption: {
        maxLength: 4096,
        maxLengthWithMedia: 1024,
        countedIn: 'characters',
        required: false,
        maxHashtags: null,
        maxLinks: null,
        charactersPerUrl: null,
      },
      media: { min: 0, max: 10, kinds: ['image', 'video'], maxVideos: 10, mixedKinds: true },
      aspectRatio: { min: 1 / 20, max: 20 },
      video: null,
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 10 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4'], maxBytes: 50 * MB, minWidth: null, maxWidth: null, maxPixels: null, minDurationMs: 0, maxDurationMs: 24 * 3600_000 },
  altText: null,
  settings: {
    ...noSettings,
    properties: {
      silent: {
        type: 'boolean',
        default: false,
        title: 'Send silently',
        description: 'Members get the message without a sound (the Bot API’s disable_notification).',
      },
    },
  },
  postingLimits: ['20 messages a minute to one channel or group (Telegram’s limit for bots).'],
  notes: [
    'A post without media is one text message (up to 4,096 characters); with media its text is the caption (up to 1,024), and 2 to 10 files go as one album.',
    'Links, @mentions and #hashtags in the text become Telegram’s entities (the text is sent as written, without a parse mode).',
    'Telegram counts characters in UTF-16 code units: an emoji outside the Basic Multilingual Plane counts twice there.',
    'Telegram documents no video duration limit; none is applied here (the 24 hours given stand for none).',
    'Telegram offers bots no way to find a message they sent: an attempt cut off while sending is not sent again by itself (see docs/networks/telegram.md).',
  ],
};

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
