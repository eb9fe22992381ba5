import { GB, MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: 5, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(1), maxDurationMs: minutes(5) };

export const threadsRules: ProviderRules = {
  provider: 'threads',
  displayName: 'Threads',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with one image or video, or a carousel of up to 10 images and videos.',
      caption,
      media: { min: 0, max: 10, kinds: ['image', 'video'], maxVideos: 10, mixedKinds: true },
      aspectRatio: null,
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 8 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov'], maxBytes: 1 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 1000 },
  settings: {
    type: 'object',
    properties: {
      replyControl: {
        type: 'string',
        enum: ['everyone', 'accounts_you_follow', 'mentioned_only'],
        default: 'everyone',
        description: 'Who may reply (reply_control).',
      },
    },
    additionalProperties: false,
  },
  postingLimits: ['250 API posts per 24 hours'],
  notes: [
    'Sources disagree on carousel size (10 or 20); the stricter 10 applies.',
    'Carousels may mix images and videos.',
    'A post may contain at most 5 links.',
    'No minimum video length is documented; 1 second is used.',
  ],
};
