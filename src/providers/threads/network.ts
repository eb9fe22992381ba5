// Threads as the service knows it: its rules, its OAuth app and its adapter (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import { GB, MB, maxThreadParts, minutes, seconds, firstCommentSetting, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: 5, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(1), maxDurationMs: minutes(5) };

export const threadsRules: ProviderRules = {
  provider: 'threads',
  displayName: 'Threads',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with one image or video, or a carousel of up to 20 images and videos.',
      caption,
      media: { min: 0, max: 20, kinds: ['image', 'video'], maxVideos: 20, mixedKinds: true },
      aspectRatio: null,
      video: videoDuration,
      thread: { maxParts: maxThreadParts },
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
      linkAttachment: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description: 'A link shown as a preview card (link_attachment); only on a post without media.',
      },
      firstComment: firstCommentSetting(caption.maxLength),
    },
    additionalProperties: false,
  },
  postingLimits: ['250 API posts per 24 hours', '1,000 API replies per 24 hours (a thread’s parts and a first comment)'],
  notes: [
    "A carousel takes 2 to 20 items (Meta's Threads Posts reference; older third-party sources say 10).",
    'Carousels may mix images and videos.',
    'A post may contain at most 5 links.',
    'No minimum video length is documented; 1 second is used.',
  ],
};

export const threadsNetwork = defineNetwork({
  rules: threadsRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'THREADS', apiBaseUrl: 'https://graph.threads.net', authBaseUrl: 'https://threads.net' },
  adapter: async () => {
    const { createThreadsAdapter } = await import('./adapter.ts');
    return oauthFactory('threads', createThreadsAdapter);
  },
  inbox: {
    adapter: async () => {
      const [{ ThreadsInbox }, { threadsGraphs }] = await Promise.all([import('./inbox.ts'), import('./adapter.ts')]);
      return oauthFactory('threads', (dependencies) => new ThreadsInbox(threadsGraphs(dependencies).graph));
    },
  },
});
