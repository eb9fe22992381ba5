import { GB, MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 2200, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(3), maxDurationMs: minutes(10) };

export const tiktokRules: ProviderRules = {
  provider: 'tiktok',
  displayName: 'TikTok',
  placements: [
    {
      name: 'video',
      description: 'A TikTok video: exactly one video.',
      caption,
      media: { min: 1, max: 1, kinds: ['video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'webp'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov', 'webm'], maxBytes: 4 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: null,
  settings: {
    type: 'object',
    properties: {
      privacyLevel: {
        type: 'string',
        enum: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        default: 'SELF_ONLY',
        description: 'Who can see the video; unaudited TikTok apps may only post SELF_ONLY.',
      },
      allowComments: { type: 'boolean', default: true },
      allowDuet: { type: 'boolean', default: true },
      allowStitch: { type: 'boolean', default: true },
    },
    additionalProperties: false,
  },
  postingLimits: ['6 requests per minute per token'],
  notes: [
    'Unaudited TikTok apps can post privately only.',
    'Photo posts (up to 35 photos, never mixed with video; title 90, description 4,000) are not offered as a placement.',
  ],
};
