// Discord as the service knows it: its rules, the operator's application with its bot (sign-in at discord.com, the
// API at discord.com/api/v10, the bot's token as DISCORD_BOT_TOKEN) and its adapter (src/providers/network.ts).
//
// Discord's limits for a bot's message in a server's channel, from its API reference:
//   Create Message  https://discord.com/developers/docs/resources/message#create-message: `content` up to 2,000
//     characters; up to 10 files (`files[n]`, described in `attachments`, each `description` its alt text, up to
//     1,024 characters); `flags` SUPPRESS_EMBEDS (1 << 2) keeps Discord from unfurling the message's links.
//   Uploading files  https://discord.com/developers/docs/reference#uploading-files: the upload limit applies to the
//     whole request, 25 MiB by default (more in boosted servers; discord/discord-api-docs#6058 "raised the default
//     upload limit to 25mb ... Bots"); a larger request is 413 "Request entity too large" (40005).
//   Text channels (type 0) and announcement channels (type 5) take messages
//     (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
//   Rate limits  https://discord.com/developers/docs/topics/rate-limits: per-route buckets (X-RateLimit-* headers)
//     and 50 requests a second for the whole bot.
import { defineNetwork, oauthFactory } from '../network.ts';
import { MB, type CaptionRules, type ProviderRules } from '../rules.ts';

const content: CaptionRules = { maxLength: 2000, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
/** Discord's default upload limit, for all of one message's files together. */
export const discordUploadLimit = 25 * MB;

export const discordRules: ProviderRules = {
  provider: 'discord',
  displayName: 'Discord',
  placements: [
    {
      name: 'feed',
      description: 'A message in a channel of the server, as its bot: the text, and up to 10 images and videos as attachments.',
      caption: content,
      media: { min: 0, max: 10, kinds: ['image', 'gif', 'video'], maxVideos: 10, mixedKinds: true },
      aspectRatio: null,
      video: null,
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: discordUploadLimit, minWidth: null, maxWidth: null, maxPixels: null },
  gif: { formats: ['gif'], maxBytes: discordUploadLimit, minWidth: null, maxWidth: null, maxPixels: null },
  video: {
    formats: ['mp4', 'mov', 'webm'],
    maxBytes: discordUploadLimit,
    minWidth: null,
    maxWidth: null,
    maxPixels: null,
    minDurationMs: 0,
    maxDurationMs: 24 * 3600_000,
  },
  altText: { maxLength: 1024 },
  settings: {
    type: 'object',
    properties: {
      channel: {
        type: 'string',
        pattern: '^[0-9]{17,20}$',
        title: 'Channel',
        description: 'The id of the server’s text or announcement channel to post in (the account’s setting options list them).',
      },
      suppressEmbeds: {
        type: 'boolean',
        default: false,
        title: 'No link previews',
        description: 'Keeps Discord from showing previews of the message’s links (its SUPPRESS_EMBEDS flag).',
      },
    },
    required: ['channel'],
    additionalProperties: false,
  },
  postingLimits: [
    'Discord limits each route per bot in buckets it announces in X-RateLimit-* headers (messages to one channel share one), and the whole bot to 50 requests a second; a 429 says how long to wait (retry_after), which the target waits.',
  ],
  notes: [
    'Every Discord target needs its channel: one of the server’s text or announcement channels.',
    'Images and videos go as attachments (up to 10); a message’s files together may be at most 25 MiB, Discord’s upload limit outside boosted servers.',
    'Discord shows previews of the message’s links itself, unless suppressEmbeds is set.',
    'The message is the operator’s bot’s, in the server the person added it to.',
  ],
};

export const discordNetwork = defineNetwork({
  rules: discordRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'DISCORD', apiBaseUrl: 'https://discord.com/api/v10', authBaseUrl: 'https://discord.com', botToken: true },
  adapter: async () => {
    const { createDiscordAdapter } = await import('./adapter.ts');
    return oauthFactory('discord', createDiscordAdapter);
  },
});
