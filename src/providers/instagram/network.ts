// Instagram as the service knows it: its rules, its OAuth apps and its adapter (src/providers/network.ts). It connects
// in two ways: Facebook Login, through the Facebook app (`appOf`), and Instagram Login, through the INSTAGRAM_ app.
import { appOrSettings, defineNetwork, type NetworkConfig } from '../network.ts';
import { callbackUrl } from '../oauth2.ts';
import { MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 2200, countedIn: 'characters', required: false, maxHashtags: 5, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(3), maxDurationMs: minutes(15) };

export const instagramRules: ProviderRules = {
  provider: 'instagram',
  displayName: 'Instagram',
  placements: [
    {
      name: 'feed',
      description: 'A feed post: one image or video, or a carousel of up to 10 images and videos.',
      caption,
      media: { min: 1, max: 10, kinds: ['image', 'video'], maxVideos: 10, mixedKinds: true },
      aspectRatio: { min: 0.8, max: 1.91 },
      video: videoDuration,
    },
    {
      name: 'reel',
      description: 'A reel: exactly one vertical (9:16) video.',
      caption,
      media: { min: 1, max: 1, kinds: ['video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: { min: 0.5, max: 0.6 },
      video: videoDuration,
    },
    {
      name: 'story',
      description: 'A story: exactly one image or video.',
      caption,
      media: { min: 1, max: 1, kinds: ['image', 'video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 8 * MB, minWidth: 320, maxWidth: 1440, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov'], maxBytes: 300 * MB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 1000 },
  settings: {
    type: 'object',
    properties: {
      shareToFeed: { type: 'boolean', default: true, description: 'Reels only: also show the reel in the profile feed (share_to_feed).' },
      // POST /{ig-media-id}/comments documents no length; Instagram's text limit (its captions') applies.
      firstComment: {
        type: 'string',
        minLength: 1,
        maxLength: 2200,
        description: 'Posted by the account as the first comment on the published post (not on stories).',
      },
    },
    additionalProperties: false,
  },
  postingLimits: ['400 containers per 24 hours'],
  notes: [
    'Sources disagree on hashtags (30 or 5); the stricter 5 applies.',
    'Sources disagree on video size (300 MB or 1 GB); the stricter 300 MB applies.',
    'Reels are 9:16; a ratio of 0.5 to 0.6 is accepted to allow for real files.',
    'Carousels may mix images and videos.',
    'Alt text applies to image posts; its length is not documented, 1000 is assumed.',
    'Durations are documented for reels only; they apply to all video here.',
    'Instagram takes JPEG images only: a PNG or WebP is published as the JPEG rendition made of it when it was uploaded.',
  ],
};

/** The operator's app of each way of connecting: Facebook's, Instagram's (or the settings that would give it). */
const appsOf = (config: NetworkConfig) => ({
  facebook_login: appOrSettings(config, 'facebook', 'FACEBOOK'),
  instagram_login: appOrSettings(config, 'instagram', 'INSTAGRAM'),
});

export const instagramNetwork = defineNetwork({
  rules: instagramRules,
  connection: { method: 'oauth2' },
  // Instagram Login's app (instagram/login.ts); Facebook Login's is Facebook's.
  app: {
    settingsPrefix: 'INSTAGRAM',
    apiBaseUrl: 'https://graph.instagram.com',
    authBaseUrl: 'https://www.instagram.com',
    tokenBaseUrl: 'https://api.instagram.com',
  },
  appOf: 'facebook',
  adapter: async () => {
    const { createInstagramAdapter } = await import('./adapter.ts');
    return ({ config, publicBaseUrl }) => createInstagramAdapter({ apps: appsOf(config), redirectUri: callbackUrl(publicBaseUrl, 'instagram'), config });
  },
  inbox: {
    adapter: async () => {
      const { createInstagramInbox } = await import('./inbox.ts');
      return ({ config }) => createInstagramInbox({ apps: appsOf(config), config });
    },
  },
});
