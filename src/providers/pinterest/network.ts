// Pinterest as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { GB, MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(4), maxDurationMs: minutes(15) };

export const pinterestRules: ProviderRules = {
  provider: 'pinterest',
  displayName: 'Pinterest',
  placements: [
    {
      name: 'pin',
      description: 'A pin: up to 5 images of the same size, or one video.',
      caption,
      media: { min: 1, max: 5, kinds: ['image', 'video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov'], maxBytes: 2 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 500 },
  settings: {
    type: 'object',
    properties: {
      boardId: { type: 'string', minLength: 1, maxLength: 64, description: 'The board the pin goes to.' },
      title: { type: 'string', maxLength: 100 },
      link: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where the pin leads.' },
      coverMediaId: {
        type: 'string',
        format: 'uuid',
        description: "A ready image of the media library (JPEG or PNG) as a video pin's cover; without it, a frame of the video.",
      },
    },
    required: ['boardId'],
    additionalProperties: false,
  },
  postingLimits: [],
  notes: [
    'Pinterest needs a board.',
    'The caption becomes the description (500); the title is limited to 100.',
    'Images in a multi-image pin must be the same size; 2:3 is recommended.',
    'A video pin needs a cover: the image coverMediaId names, else a frame one second into the video.',
    'Several images make a carousel pin (2 to 5).',
  ],
};

export const pinterestNetwork = defineNetwork({
  rules: pinterestRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'PINTEREST', apiBaseUrl: 'https://api.pinterest.com', authBaseUrl: 'https://www.pinterest.com' },
  adapter: async () => {
    const { createPinterestAdapter } = await import('./adapter.ts');
    return oauthFactory('pinterest', createPinterestAdapter);
  },
  inbox: { unavailable: "Pinterest's API offers no reading or answering of comments." },
});
