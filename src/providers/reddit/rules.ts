// Reddit's limits for a post to a subreddit, from its API reference and its own pages:
//   POST /api/submit (https://www.reddit.com/dev/api#POST_api_submit): `sr`, `kind` (link, self, image, video,
//     videogif), `title` ("title of the submission. up to 300 characters long"), `text` (raw markdown) for a self
//     post, `url` for a link, `flair_id` (up to 36 characters), `nsfw`, `spoiler`
//   a self post's text: 40,000 characters (Reddit's submit page and its TOO_LONG answer for `text`)
//   subreddit names: 3 to 21 letters, digits and underscores (Reddit's SUBREDDIT_NOEXIST/BAD_SR_NAME rule; r/ is a prefix, not a name)
//   images and videos (kind=image|video, uploaded through /api/media/asset.json and Reddit's websocket) are not offered
//   here yet: a post with media is refused by these rules (docs/networks/reddit.md).
import { MB, type CaptionRules, type MediaCountRules, type ProviderRules } from '../rules.ts';

const body: CaptionRules = { maxLength: 40_000, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const noMedia: MediaCountRules = { min: 0, max: 0, kinds: [], maxVideos: 0, mixedKinds: false };

export const redditRules: ProviderRules = {
  provider: 'reddit',
  displayName: 'Reddit',
  placements: [
    {
      name: 'text',
      description: 'A text post (Reddit’s self post): the title, and the caption as its markdown body (which may be empty).',
      caption: body,
      media: noMedia,
      aspectRatio: null,
      video: null,
    },
    {
      name: 'link',
      description: 'A link post: the title and the `url` setting, with the caption as its markdown body.',
      caption: body,
      media: noMedia,
      aspectRatio: null,
      video: null,
    },
  ],
  // No placement takes media yet (`media.max` 0): the image rules Reddit's image posts would follow, for the catalog.
  image: { formats: ['jpeg', 'png', 'gif'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: null,
  altText: null,
  settings: {
    type: 'object',
    properties: {
      subreddit: {
        type: 'string',
        pattern: '^(r/)?[A-Za-z0-9][A-Za-z0-9_]{2,20}$',
        title: 'Subreddit',
        description: 'The subreddit to post to, with or without r/.',
      },
      title: { type: 'string', minLength: 1, maxLength: 300, title: 'Title', description: 'The post’s title (Reddit: up to 300 characters).' },
      url: { type: 'string', format: 'uri', maxLength: 2048, title: 'Link', description: 'Where a link post leads (the link placement needs it).' },
      flairId: {
        type: 'string',
        maxLength: 36,
        title: 'Flair',
        description: 'A link flair template id of the subreddit (its flair_template_id); a subreddit that requires flair refuses a post without one.',
      },
      nsfw: { type: 'boolean', default: false, title: 'NSFW', description: 'Marks the post NSFW (18+).' },
      spoiler: { type: 'boolean', default: false, title: 'Spoiler', description: 'Marks the post a spoiler (where the subreddit allows spoilers).' },
    },
    required: ['subreddit', 'title'],
    additionalProperties: false,
  },
  postingLimits: [
    'Reddit allows an app 100 requests a minute per OAuth client, averaged over 10 minutes (X-Ratelimit-* headers); a subreddit may also make a new account wait between posts (RATELIMIT: "try again in N minutes"), which the target waits.',
  ],
  notes: [
    'Every Reddit post needs a subreddit and a title (up to 300 characters).',
    'A link post needs the url setting; its caption goes as the body (`text`), which Reddit documents for text posts and shows under links where it shows link bodies.',
    'Images and videos are not posted to Reddit yet: a Reddit target with media is refused.',
    'A subreddit’s own rules (flair required, post kinds allowed, karma) are answered by Reddit when posting, and shown as the target’s reason.',
  ],
};
