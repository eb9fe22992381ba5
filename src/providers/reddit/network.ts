// Reddit as the service knows it: its rules, its OAuth app (sign-in and tokens at www.reddit.com, the API at
// oauth.reddit.com) and its adapter (src/providers/network.ts).
//
// Reddit's limits for a post to a subreddit, from its API reference and its own pages:
//   POST /api/submit (https://www.reddit.com/dev/api#POST_api_submit): `sr`, `kind` (link, self, image, video,
//     videogif), `title` ("title of the submission. up to 300 characters long"), `text` (raw markdown) for a self
//     post, `url` for a link, `flair_id` (up to 36 characters), `nsfw`, `spoiler`
//   a self post's text: 40,000 characters (Reddit's submit page and its TOO_LONG answer for `text`)
//   subreddit names: 3 to 21 letters, digits and underscores (Reddit's SUBREDDIT_NOEXIST/BAD_SR_NAME rule; r/ is a prefix, not a name)
//   an image post (kind=image): one image, JPEG, PNG or GIF, up to 20 MB (a production client's Reddit media guide,
//     https://docs.getlate.dev/resources/media-guidelines/reddit: "Max Images 1 per post, Formats JPEG, PNG, GIF, Max
//     File Size 20 MB"; PRAW's `Subreddit.submit_image` takes one file)
//   a video post (kind=video): one video, MP4 or MOV, up to 1 GB and 15 minutes. Reddit documents no figure for a
//     member's video post through the API that we found; these are Reddit's own video specs for video ads ("File type
//     MP4 or MOV, Maximum file size 1 GB, Length 2 seconds to 15 minutes", Reddit Ads Help "Video Ad Specifications"),
//     the nearest figures Reddit publishes (its 2-second minimum for ads not kept). A video post needs a poster image
//     (`video_poster_url`), which PRAW's `submit_video` and postiz-app's reddit provider ("You must attach a thumbnail
//     to your video post") always send.
import { defineNetwork, oauthFactory } from '../network.ts';
import { GB, MB, minutes, type CaptionRules, type MediaCountRules, type ProviderRules } from '../rules.ts';

const body: CaptionRules = { maxLength: 40_000, countedIn: 'characters', required: false, maxHashtags: null, maxLinks: null, charactersPerUrl: null };
const noMedia: MediaCountRules = { min: 0, max: 0, kinds: [], maxVideos: 0, mixedKinds: false };
const videoDuration = { minDurationMs: 0, maxDurationMs: minutes(15) };

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
    {
      name: 'image',
      description: 'An image post: the title and one image, with the caption as its markdown body.',
      caption: body,
      media: { min: 1, max: 1, kinds: ['image'], maxVideos: 0, mixedKinds: false },
      aspectRatio: null,
      video: null,
    },
    {
      name: 'video',
      description: 'A video post: the title, one video and its poster (the image `posterMediaId` names), with the caption as its markdown body.',
      caption: body,
      media: { min: 1, max: 1, kinds: ['video'], maxVideos: 1, mixedKinds: false },
      aspectRatio: null,
      video: videoDuration,
    },
  ],
  image: { formats: ['jpeg', 'png', 'gif'], maxBytes: 20 * MB, minWidth: null, maxWidth: null, maxPixels: null },
  gif: null,
  video: { formats: ['mp4', 'mov'], maxBytes: 1 * GB, minWidth: null, maxWidth: null, maxPixels: null, ...videoDuration },
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
      posterMediaId: {
        type: 'string',
        format: 'uuid',
        title: 'Poster',
        description: 'A ready image of the media library (JPEG, PNG or GIF) shown before a video post plays; the video placement needs it.',
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
    'An image post takes one image; a video post one video and its poster (posterMediaId). Reddit makes a media post after it has processed the file: the target stays publishing until the post shows in the subreddit.',
    'A subreddit’s own rules (flair required, post kinds allowed, karma) are answered by Reddit when posting, and shown as the target’s reason.',
  ],
};

export const redditNetwork = defineNetwork({
  rules: redditRules,
  connection: { method: 'oauth2' },
  app: { settingsPrefix: 'REDDIT', apiBaseUrl: 'https://oauth.reddit.com', authBaseUrl: 'https://www.reddit.com' },
  adapter: async () => {
    const { createRedditAdapter } = await import('./adapter.ts');
    return oauthFactory('reddit', createRedditAdapter);
  },
});
