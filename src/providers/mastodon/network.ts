// Mastodon as the service knows it: an app registered per instance the person names (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { MB, maxThreadParts, minutes, seconds, firstCommentSetting, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: 23 };
const videoDuration = { minDurationMs: seconds(1), maxDurationMs: minutes(60) };

export const mastodonRules: ProviderRules = {
  provider: 'mastodon',
  displayName: 'Mastodon',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with up to 4 images, or one video or GIF.',
      caption,
      media: { min: 0, max: 4, kinds: ['image', 'video', 'gif'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
      thread: { maxParts: maxThreadParts },
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 16 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: { formats: ['gif'], maxBytes: 16 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  video: { formats: ['mp4', 'mov', 'webm'], maxBytes: 99 * MB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 1500 },
  settings: {
    type: 'object',
    properties: {
      visibility: { type: 'string', enum: ['public', 'unlisted', 'private', 'direct'], default: 'public' },
      spoilerText: { type: 'string', maxLength: 500, default: '', description: 'A content warning shown before the text.' },
      // The instance's own limit (max_characters) is checked with the account's rules, as captions are.
      firstComment: firstCommentSetting(caption.maxLength),
    },
    additionalProperties: false,
  },
  postingLimits: [],
  notes: [
    'Limits are per instance; the defaults here are those of mastodon.social, read the real ones from /api/v2/instance.',
    'Text is limited to 500 characters by default.',
    'Video length is instance dependent; 60 minutes is used as a generous limit.',
  ],
};

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
