// YouTube as the service knows it: its rules, its OAuth app, its adapter and its inbox (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { GB, MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 5000, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const oneVideo = { min: 1, max: 1, kinds: ['video' as const], maxVideos: 1, mixedKinds: false };

export const youtubeRules: ProviderRules = {
  provider: 'youtube',
  displayName: 'YouTube',
  placements: [
    {
      name: 'video',
      description: 'A YouTube video: exactly one video.',
      caption,
      media: oneVideo,
      aspectRatio: null,
      video: { minDurationMs: seconds(1), maxDurationMs: minutes(15) },
    },
    {
      name: 'short',
      description: 'A YouTube Short: exactly one vertical or square video up to 3 minutes.',
      caption,
      media: oneVideo,
      aspectRatio: { min: 0, max: 1 },
      video: { minDurationMs: seconds(1), maxDurationMs: minutes(3) },
    },
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 2 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: {
    formats: ['mp4', 'mov', 'webm'],
    maxBytes: 256 * GB,
    minWidth: null,
    maxWidth: null,
    maxPixels: null,
    minDurationMs: seconds(1),
    maxDurationMs: minutes(15),
  },
  altText: null,
  settings: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 100, description: "The video's title; the caption's first line when absent." },
      privacy: { type: 'string', enum: ['public', 'unlisted', 'private'], default: 'public' },
      tags: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 100 },
        maxItems: 50,
        uniqueItems: true,
        default: [],
        description: 'At most 500 characters in total.',
      },
      madeForKids: { type: 'boolean', default: false, description: 'Required by YouTube (COPPA): whether the video is made for children.' },
      categoryId: { type: 'string', pattern: '^[0-9]+$', description: "YouTube's video category (e.g. 22, People & Blogs); YouTube chooses when absent." },
      thumbnailMediaId: {
        type: 'string',
        format: 'uuid',
        description: "A ready image of the media library (JPEG or PNG, at most 2 MB) set as the video's thumbnail.",
      },
      // commentThreads.insert: snippet.topLevelComment.snippet.textOriginal, at most 10,000 characters.
      firstComment: {
        type: 'string',
        minLength: 1,
        maxLength: 10000,
        description:
          'Posted by the channel as the first comment on the video (needs the youtube.force-ssl permission: channels connected before it must reconnect).',
      },
    },
    additionalProperties: false,
  },
  postingLimits: [],
  notes: [
    'The caption becomes the description (5,000); the title (100) is taken from its first line.',
    'Tags are limited to 500 characters in total.',
    'Videos over 15 minutes need a verified account; the stricter 15 minutes applies.',
    'Image rules apply to the thumbnail.',
  ],
};

export const youtubeNetwork = defineNetwork({
  rules: youtubeRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'YOUTUBE',
    apiBaseUrl: 'https://www.googleapis.com',
    authBaseUrl: 'https://accounts.google.com',
    tokenBaseUrl: 'https://oauth2.googleapis.com',
  },
  adapter: async () => {
    const { createYouTubeAdapter } = await import('./adapter.ts');
    return oauthFactory('youtube', createYouTubeAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createYouTubeInbox } = await import('./inbox.ts');
      return oauthFactory('youtube', createYouTubeInbox);
    },
  },
});
