// Facebook Pages as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { GB, MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 63206, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(1), maxDurationMs: minutes(240) };

export const facebookRules: ProviderRules = {
  provider: 'facebook',
  displayName: 'Facebook Page',
  placements: [
    {
      name: 'feed',
      description: 'A Page post: text with up to 10 images, or one video.',
      caption,
      media: { min: 0, max: 10, kinds: ['image', 'video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
    },
    {
      name: 'reel',
      description: 'A reel: exactly one vertical (9:16) video of 3 to 90 seconds.',
      caption,
      media: { min: 1, max: 1, kinds: ['video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: { min: 0.5, max: 0.6 },
      video: { minDurationMs: seconds(3), maxDurationMs: seconds(90) },
    },
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 10 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov'], maxBytes: 4 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 1000 },
  settings: {
    type: 'object',
    properties: {
      // Meta documents no comment length; 8,000 characters is Facebook's limit as its apps enforce it.
      firstComment: { type: 'string', minLength: 1, maxLength: 8000, description: 'Posted by the Page as the first comment on the published post.' },
    },
    additionalProperties: false,
  },
  postingLimits: [],
  notes: [
    'Posts go to a Facebook Page, not a personal profile.',
    'Reels are 9:16 and 3 to 90 seconds (Reels Publishing API); a ratio of 0.5 to 0.6 is accepted to allow for real files.',
    'Stories are not published by this service: the placement is not offered.',
    'No minimum video length is documented; 1 second is used.',
  ],
};

export const facebookNetwork = defineNetwork({
  rules: facebookRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'FACEBOOK',
    apiBaseUrl: 'https://graph.facebook.com',
    authBaseUrl: 'https://www.facebook.com',
    uploadBaseUrl: 'https://rupload.facebook.com',
  },
  adapter: async () => {
    const { createFacebookAdapter } = await import('./adapter.ts');
    return oauthFactory('facebook', createFacebookAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createFacebookInbox } = await import('./inbox.ts');
      return oauthFactory('facebook', createFacebookInbox);
    },
  },
});
