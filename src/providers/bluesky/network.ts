// Bluesky as the service knows it: accounts connect with an app password at their PDS (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { MB, maxThreadParts, minutes, seconds, firstCommentSetting, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 300, countedIn: 'graphemes', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(1), maxDurationMs: minutes(3) };

export const blueskyRules: ProviderRules = {
  provider: 'bluesky',
  displayName: 'Bluesky',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with up to 4 images, or one video.',
      caption,
      media: { min: 0, max: 4, kinds: ['image', 'video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
      thread: { maxParts: maxThreadParts },
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4'], maxBytes: 50 * MB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 2000 },
  settings: {
    type: 'object',
    properties: {
      langs: {
        type: 'array',
        items: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$' },
        maxItems: 3,
        uniqueItems: true,
        default: [],
        description: 'Languages of the text (BCP-47), at most 3.',
      },
      contentLabels: {
        type: 'array',
        items: { enum: ['sexual', 'nudity', 'porn', 'graphic-media'] },
        uniqueItems: true,
        default: [],
        description: "Content warnings the author puts on the post (Bluesky's self-labels); readers' settings decide what they see.",
      },
      firstComment: firstCommentSetting(caption.maxLength),
    },
    additionalProperties: false,
  },
  postingLimits: [],
  notes: [
    'Text length is counted in graphemes.',
    'Images over 1,000,000 bytes (the blob limit older servers keep; newer ones allow 2,000,000) are re-encoded as JPEG to fit, at most 2,000 px on the longest side; images are accepted up to 20 MB for that reason.',
    "Videos are MP4 only (the video embed accepts video/mp4), uploaded to the account's PDS as a blob; sources disagree on video size (50 MB or 100 MB); the stricter 50 MB applies, and a PDS may set a lower upload limit of its own.",
    "A post with a link and no media gets a link card with the page's title and description (its URL alone when the page cannot be read).",
    'No minimum video length is documented; 1 second is used.',
  ],
};

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
