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
    {
      name: 'photo',
      description: 'A TikTok photo post: 1 to 35 JPEG or WebP images, never with video; the caption is its description.',
      caption: { ...caption, maxLength: 4000 },
      media: { min: 1, max: 35, kinds: ['image'], maxVideos: 0, mixedKinds: false },
      aspectRatio: null,
      video: null,
    },
  ],
  image: { formats: ['jpeg', 'webp'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: 1920 * 1080 },
  gif: null,
  video: { formats: ['mp4', 'mov', 'webm'], maxBytes: 4 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: null,
  settings: {
    type: 'object',
    properties: {
      privacyLevel: {
        type: 'string',
        enum: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        description:
          "Who can see the post; it must be one the creator's account offers (a private account offers no PUBLIC_TO_EVERYONE, unaudited TikTok apps only SELF_ONLY). Absent: the first public level offered, else the first offered.",
      },
      allowComments: { type: 'boolean', default: true, description: 'Off whatever this says where the creator turned comments off.' },
      allowDuet: { type: 'boolean', default: true, description: 'Videos only; off where the creator turned duets off.' },
      allowStitch: { type: 'boolean', default: true, description: 'Videos only; off where the creator turned stitches off.' },
      title: { type: 'string', minLength: 1, maxLength: 90, description: "A photo post's title; the caption's first line when absent." },
    },
    additionalProperties: false,
  },
  postingLimits: ['6 post initializations per minute per account', 'A daily cap of API posts per creator (TikTok does not publish it; about 15)'],
  notes: [
    'Unaudited TikTok apps can post privately (SELF_ONLY) only.',
    'The privacy levels, comments, duets and stitches a post may have are what the creator allows, read from TikTok before each post.',
    'Photos are fetched by TikTok from signed URLs: at most 1080p, 20 MB each.',
  ],
};
