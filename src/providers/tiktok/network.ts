// TikTok as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
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
  // TikTok's Content Sharing Guidelines (https://developers.tiktok.com/doc/content-sharing-guidelines/), which an app's
  // audit for public posting checks: no privacy level by default (the person chooses among the creator's
  // privacy_level_options), comments, duets and stitches off until turned on, the commercial content disclosure
  // ("Your brand": brand_organic_toggle, "Branded content": brand_content_toggle, which cannot be private) and the
  // Music Usage Confirmation shown before posting.
  settings: {
    type: 'object',
    description: "By posting, you agree to TikTok's Music Usage Confirmation.",
    properties: {
      privacyLevel: {
        type: 'string',
        title: 'Who can see this post',
        enum: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        description:
          "Chosen for each post, with no default: one the creator's account offers (a private account offers no PUBLIC_TO_EVERYONE, unaudited TikTok apps only SELF_ONLY). Branded content cannot be private (SELF_ONLY).",
      },
      allowComments: {
        type: 'boolean',
        default: false,
        title: 'Allow comments',
        description: 'Off unless turned on, and off where the creator turned comments off.',
      },
      allowDuet: {
        type: 'boolean',
        default: false,
        title: 'Allow duet',
        description: 'Videos only; off unless turned on, and off where the creator turned duets off.',
      },
      allowStitch: {
        type: 'boolean',
        default: false,
        title: 'Allow stitch',
        description: 'Videos only; off unless turned on, and off where the creator turned stitches off.',
      },
      yourBrand: {
        type: 'boolean',
        default: false,
        title: 'Your brand',
        description: "You are promoting yourself or your own business: the post is labeled 'Promotional content'.",
      },
      brandedContent: {
        type: 'boolean',
        default: false,
        title: 'Branded content',
        description:
          "You are promoting another brand or a third party: the post is labeled 'Paid partnership' and cannot be private. By posting, you agree to TikTok's Branded Content Policy.",
      },
      title: { type: 'string', minLength: 1, maxLength: 90, description: "A photo post's title; the caption's first line when absent." },
    },
    required: ['privacyLevel'],
    // Branded content visibility cannot be set to private (the Content Sharing Guidelines, commercial content).
    allOf: [
      {
        if: { properties: { brandedContent: { const: true } }, required: ['brandedContent'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; the rules are data, never awaited.
        then: { properties: { privacyLevel: { enum: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR'] } } },
      },
    ],
    additionalProperties: false,
  },
  postingLimits: ['6 post initializations per minute per account', 'A daily cap of API posts per creator (TikTok does not publish it; about 15)'],
  notes: [
    'Unaudited TikTok apps can post privately (SELF_ONLY) only, for at most 5 creators a day.',
    'Each post names who can see it (settings.privacyLevel, no default); comments, duets and stitches are off unless turned on.',
    "A video longer than the creator's own maximum (60 s, 3 or 10 minutes, per creator) is refused before it is sent.",
    'The privacy levels, comments, duets and stitches a post may have are what the creator allows, read from TikTok before each post.',
    'Photos are fetched by TikTok from signed URLs: at most 1080p, 20 MB each.',
  ],
};

export const tiktokNetwork = defineNetwork({
  rules: tiktokRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'TIKTOK', apiBaseUrl: 'https://open.tiktokapis.com', authBaseUrl: 'https://www.tiktok.com' },
  adapter: async () => {
    const { createTikTokAdapter } = await import('./adapter.ts');
    return oauthFactory('tiktok', createTikTokAdapter);
  },
  inbox: { unavailable: "TikTok's API offers no reading or answering of comments." },
});
