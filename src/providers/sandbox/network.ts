// The sandbox as the service knows it: a network inside the service, for trying the API (src/providers/network.ts).
import { defineNetwork } from '../network.ts';
import { MB, minutes, seconds, type CaptionRules, type ProviderRules, noSettings } from '../rules.ts';

const caption: CaptionRules = { maxLength: 500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const oneVideo = { min: 1, max: 1, kinds: ['video' as const], maxVideos: 1, mixedKinds: false };

/** The built-in test network: publishes locally, steered by markers in the caption (see docs/networks/sandbox.md). */
export const sandboxRules: ProviderRules = {
  provider: 'sandbox',
  displayName: 'Sandbox (test network)',
  placements: [
    {
      name: 'feed',
      description: 'A feed post: text with up to 4 images, or one video or GIF.',
      caption,
      media: { min: 0, max: 4, kinds: ['image', 'video', 'gif'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: null,
    },
    {
      name: 'reel',
      description: 'A short vertical video.',
      caption,
      media: oneVideo,
      aspectRatio: null,
      video: { minDurationMs: seconds(1), maxDurationMs: minutes(3) },
    },
    {
      name: 'story',
      description: 'A story video.',
      caption,
      media: oneVideo,
      aspectRatio: null,
      video: { minDurationMs: seconds(1), maxDurationMs: minutes(1) },
    },
  ],
  image: { formats: ['jpeg', 'png', 'webp'], maxBytes: 8 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: { formats: ['gif'], maxBytes: 15 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  video: { formats: ['mp4', 'mov'], maxBytes: 100 * MB, minWidth: null, maxWidth: null, maxPixels: null, minDurationMs: seconds(1), maxDurationMs: minutes(3) },
  altText: { maxLength: 1000 },
  settings: noSettings,
  postingLimits: [],
  notes: ['Markers in the caption steer the outcome: [sandbox:fail], [sandbox:fail-once], [sandbox:slow].'],
};

export const sandboxNetwork = defineNetwork({
  rules: sandboxRules,
  connection: { method: 'local' },
  adapter: async () => {
    const { SandboxAdapter } = await import('./adapter.ts');
    return ({ db, publicBaseUrl, config }) => new SandboxAdapter(db, publicBaseUrl, config.sandboxQuota);
  },
  inbox: { unavailable: 'The sandbox publishes nowhere, so nobody comments.' },
});
