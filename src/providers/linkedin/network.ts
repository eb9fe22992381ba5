// LinkedIn as the service knows it: its rules, its OAuth app, its adapter and its inbox (src/providers/network.ts).
import { defineNetwork, oauthFactory } from '../network.ts';
import type { SettingOption } from '../adapter.ts';
import { MB, minutes, seconds, type AccountRules, type CaptionRules, type ProviderRules } from '../rules.ts';

const caption: CaptionRules = { maxLength: 3000, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const videoDuration = { minDurationMs: seconds(3), maxDurationMs: minutes(30) };

export const linkedinRules: ProviderRules = {
  provider: 'linkedin',
  displayName: 'LinkedIn',
  placements: [
    {
      name: 'feed',
      description: 'A post: text with one image, a carousel of 2 to 20 images, or one video.',
      caption,
      media: { min: 0, max: 20, kinds: ['image', 'video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: { min: 1 / 2.4, max: 2.4 },
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 5 * MB, minWidth: null, maxWidth: null, maxPixels: 36_152_320 },
  gif: null,
  video: { formats: ['mp4'], maxBytes: 500 * MB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
  altText: { maxLength: 1000 },
  settings: {
    type: 'object',
    properties: {
      visibility: {
        type: 'string',
        enum: ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'],
        default: 'PUBLIC',
        description: "Who sees the post on LinkedIn. CONNECTIONS is for members: a page's post with it is refused when it is made.",
      },
      // A comment's message.text: 1,250 characters (Comments API, Community Management).
      firstComment: {
        type: 'string',
        minLength: 1,
        maxLength: 1250,
        description: 'Posted by the same member or page as the first comment on the published post.',
      },
    },
    additionalProperties: false,
  },
  postingLimits: [],
  notes: ['A multi-image post needs at least 2 images.', 'Images must be under 36,152,320 pixels.'],
};

/**
 * A page's rules, stored with its account at connect: LinkedIn takes CONNECTIONS only from member authors (Posts API,
 * `visibility`: https://learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api).
 */
export const linkedinPageRules = { settingValues: { visibility: ['PUBLIC', 'LOGGED_IN'] } } as const satisfies AccountRules;

/** What people see for each visibility (GET /social-accounts/{id}/setting-options). */
const visibilityLabels: Record<string, string> = { PUBLIC: 'Anyone', CONNECTIONS: 'Connections only', LOGGED_IN: 'LinkedIn members' };

/** A page's visibility choices, as its stored rules allow them. */
export const linkedinPageVisibility: SettingOption = {
  choices: linkedinPageRules.settingValues.visibility.map((value) => ({ value, label: visibilityLabels[value] ?? value })),
  default: 'PUBLIC',
};

export const linkedinNetwork = defineNetwork({
  rules: linkedinRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'LINKEDIN', apiBaseUrl: 'https://api.linkedin.com', authBaseUrl: 'https://www.linkedin.com/oauth' },
  adapter: async () => {
    const { createLinkedInAdapter } = await import('./adapter.ts');
    return oauthFactory('linkedin', createLinkedInAdapter);
  },
  inbox: {
    adapter: async () => {
      const { createLinkedInInbox } = await import('./inbox.ts');
      return oauthFactory('linkedin', createLinkedInInbox);
    },
  },
});
