import { MB, minutes, seconds, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 300, countedIn: 'graphemes', required: false, maxHashtags: null, maxLinks: null };
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
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 1_000_000, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov', 'webm'], maxBytes: 50 * MB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 2000 },
  postingLimits: [],
  notes: [
    'Text length is counted in graphemes.',
    'Images are limited to about 1 MB each although the blob limit is 2,000,000 bytes; the stricter 1,000,000 bytes applies.',
    'Sources disagree on video size (50 MB or 100 MB); the stricter 50 MB applies.',
    'No minimum video length is documented; 1 second is used.',
  ],
};
