// Google Business Profile as the service knows it: its rules, the operator's Google OAuth app (GOOGLE_BUSINESS_*: a
// client of a Google Cloud project granted the Business Profile APIs, which may be the YouTube client's) and its adapter.
//
// Google Business Profile's limits for a location's posts, from the Business Profile APIs' reference and Google's pages:
//   LocalPost  https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts#LocalPost
//     topicType STANDARD ("What's new"), EVENT (`event` required: title and schedule), OFFER (`event` required too,
//     its title the offer's and its schedule the offer's dates; `offer` {couponCode, redeemOnlineUrl,
//     termsConditions}); callToAction {actionType BOOK | ORDER | SHOP | LEARN_MORE | SIGN_UP | CALL, url}, "ignored
//     for topic type OFFER"; media [{mediaFormat PHOTO, sourceUrl}] ("sourceUrl is the only supported data field
//     for a LocalPost MediaItem"); the summary up to 1,500 characters
//     (https://developers.google.com/my-business/content/posts-data, and Google's post editor)
//   CALL  the button calls the location's primary phone: it takes no url (ActionType, the same reference)
//   event and offer titles: 58 characters (Google's post editor; lettercounter.org's Business Profile limits guide)
//   photos  JPG or PNG, 10 KB to 5 MB, at least 250 × 250 px (https://support.google.com/business/answer/6103862)
//   videos  a LocalPost's media are photos here (the task's one photo); Google's posts API documents no video upload.
import { defineNetwork, oauthFactory } from '../network.ts';
import { MB, type CaptionRules, type MediaCountRules, type PlacementRules, type ProviderRules } from '../rules.ts';

const summary: CaptionRules = { maxLength: 1500, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const onePhoto: MediaCountRules = { min: 0, max: 1, kinds: ['image'], maxVideos: 0, mixedKinds: false };

const placement = (name: string, description: string): PlacementRules => ({
  name,
  description,
  caption: summary,
  media: onePhoto,
  aspectRatio: null,
  video: null,
});

const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const time = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };

export const googleBusinessRules: ProviderRules = {
  provider: 'google_business',
  displayName: 'Google Business Profile',
  placements: [
    placement('update', 'A “What’s new” post (topicType STANDARD): the caption, one photo, a button.'),
    placement('offer', 'An offer (topicType OFFER): its title and dates (eventTitle, startDate, endDate), coupon code, redeem link and terms.'),
    placement(
      'event',
      'An event (topicType EVENT): its title, start and end (eventTitle, startDate, startTime, endDate, endTime), with the caption, a photo and a button.',
    ),
  ],
  image: { formats: ['jpeg', 'png'], maxBytes: 5 * MB, minWidth: 250, maxWidth: null, maxPixels: null },
  gif: null,
  video: null,
  altText: null,
  // Flat, as the composer renders a network's settings (one field each): the button, the event's (or offer's) title and
  // dates, the offer's coupon, link and terms.
  settings: {
    type: 'object',
    properties: {
      button: {
        type: 'string',
        enum: ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'],
        title: 'Button',
        description: 'A button under the post (not on offers); CALL calls the location’s phone, every other leads to buttonUrl.',
      },
      buttonUrl: { type: 'string', format: 'uri', maxLength: 2048, title: 'Button link', description: 'Where the button leads (every button but CALL).' },
      eventTitle: {
        type: 'string',
        minLength: 1,
        maxLength: 58,
        title: 'Event or offer title',
        description: 'An event’s or an offer’s title (both need one).',
      },
      startDate: { ...date, title: 'Starts (YYYY-MM-DD)' },
      startTime: { ...time, title: 'Starts at (HH:MM)', description: 'In the location’s time; a day without times lasts all day.' },
      endDate: { ...date, title: 'Ends (YYYY-MM-DD)' },
      endTime: { ...time, title: 'Ends at (HH:MM)' },
      couponCode: { type: 'string', minLength: 1, maxLength: 58, title: 'Coupon code' },
      redeemOnlineUrl: { type: 'string', format: 'uri', maxLength: 2048, title: 'Redeem online' },
      termsConditions: { type: 'string', minLength: 1, maxLength: 1500, title: 'Terms and conditions' },
    },
    additionalProperties: false,
    allOf: [
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; the rules are data, never awaited.
      { if: { required: ['button'], properties: { button: { not: { const: 'CALL' } } } }, then: { required: ['buttonUrl'] } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; the rules are data, never awaited.
      { if: { required: ['buttonUrl'] }, then: { required: ['button'], properties: { button: { not: { const: 'CALL' } } } } },
      {
        if: { anyOf: ['eventTitle', 'startDate', 'endDate', 'startTime', 'endTime'].map((name) => ({ required: [name] })) },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword; the rules are data, never awaited.
        then: { required: ['eventTitle', 'startDate', 'endDate'] },
      },
    ],
  },
  postingLimits: [
    'The Business Profile APIs allow a Google Cloud project 300 requests a minute, and 10 edits a minute per location (https://developers.google.com/my-business/content/limits); a target past either waits.',
  ],
  notes: [
    'One account per location: connecting a Google account adds every location it manages.',
    'An offer and an event need a title, a start and an end date (eventTitle, startDate, endDate); an offer’s button is its redeem link, so button is not sent with it.',
    'Google fetches the photo from the service’s signed media URL: PUBLIC_BASE_URL must be reachable from the internet.',
    'Google reviews posts: one it refuses after taking it is answered REJECTED, and the target fails with that reason.',
  ],
};

/** Google's own host of the posts API (v4): GOOGLE_BUSINESS_API_BASE_URL's default. */
export const postsApiUrl = 'https://mybusiness.googleapis.com';

export const googleBusinessNetwork = defineNetwork({
  rules: googleBusinessRules,
  connection: { method: 'oauth2' },
  app: {
    settingsPrefix: 'GOOGLE_BUSINESS',
    apiBaseUrl: postsApiUrl,
    authBaseUrl: 'https://accounts.google.com',
    tokenBaseUrl: 'https://oauth2.googleapis.com',
  },
  adapter: async () => {
    const { createGoogleBusinessAdapter } = await import('./adapter.ts');
    return oauthFactory('google_business', createGoogleBusinessAdapter);
  },
  inbox: { unavailable: 'Google Business Profile has reviews, not comments on posts; reviews are not collected yet.' },
});
