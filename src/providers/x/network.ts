// X as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { xInboxUnavailable, xSearchQuota } from './tiers.ts';
import { MB, maxThreadParts, minutes, seconds, firstCommentSetting, type CaptionRules, type ProviderRules } from '../rules.ts';

// X's weighted count (src/posts/captionLength.ts, by twitter-text): links 23, CJK and emoji 2.
const caption: CaptionRules = { maxLength: 280, countedIn: 'weighted', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: 23 };

export const xRules: ProviderRules = {
  provider: 'x',
  displayName: 'X',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with up to 4 images, or one GIF, or one video.',
      caption,
      media: { min: 0, max: 4, kinds: ['image', 'video', 'gif'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: { minDurationMs: seconds(1), maxDurationMs: minutes(2) + seconds(20) },
      thread: { maxParts: maxThreadParts },
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 5 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: { formats: ['gif'], maxBytes: 15 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  video: {
    formats: ['mp4', 'mov'],
    maxBytes: 512 * MB,
    minWidth: null,
    maxWidth: null,
    maxPixels: null,
    minDurationMs: seconds(1),
    maxDurationMs: minutes(2) + seconds(20),
  },
  altText: { maxLength: 1000 },
  settings: {
    type: 'object',
    properties: {
      replySettings: {
        type: 'string',
        enum: ['everyone', 'following', 'mentionedUsers', 'subscribers', 'verified'],
        default: 'everyone',
        description: 'Who may reply (X reply_settings; everyone sends none).',
      },
      firstComment: firstCommentSetting(caption.maxLength),
    },
    additionalProperties: false,
  },
  postingLimits: [
    'Posts per account per day: X_POSTS_PER_DAY (default 100; the operator sets their X access tier’s per-user cap, Free about 17), each part of a thread and a first comment counting as one; more wait until the day has room.',
  ],
  notes: [
    'Paid accounts may post longer text; the stricter 280 applies here.',
    'Text is counted as X counts it: links 23, CJK characters and emoji 2, most others 1.',
    'No minimum video length is documented; 1 second is used.',
  ],
};

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
