// Tools over queues, the media library, analytics and the AI features.
import { z } from 'zod';
import { providerNames } from '../../src/providers/catalog.ts';
import { mediaStatuses, mediaTypes } from '../../src/media/library.ts';
import { groupings } from '../../src/analytics/report.ts';
import { postStatuses } from '../../src/posts/states.ts';
import { imageSizes } from '../../src/ai/provider.ts';
import { captionFormats, captionLimits, defaultCount } from '../../src/ai/captions.ts';
import { maxInlineBytes } from '../../src/media/imports.ts';
import {
  counted,
  graphEnum,
  graphEnumOrNull,
  graphTool,
  mediaFields,
  mediaShape,
  networkName,
  nextCursor,
  pageInput,
  pageOf,
  pageVariables,
  reads,
} from '../tool.ts';

const mediaId = z.string().describe('A media id (upload_media, list_media).');
const media = { media: mediaShape };
const mediaSummary = ({ media }: { media: z.infer<typeof mediaShape> }) =>
  `Media ${media.id} (${media.filename}) is ${media.status}${media.width ? `, ${media.width}x${media.height} px` : ''}.`;
const provider = z.enum(providerNames as [string, ...string[]]);
const credits = { creditsUsed: z.number().int(), creditsRemaining: z.number().int() };
const suggestions = { suggestions: z.array(z.string()), ...credits };
const ai = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;
const captionDocument = `mutation($action: AiCaptionAction!, $caption: String!, $targetLanguage: String, $tone: String, $provider: Provider, $count: Int) {
  suggestCaptions(action: $action, caption: $caption, targetLanguage: $targetLanguage, tone: $tone, provider: $provider, count: $count) { suggestions creditsUsed creditsRemaining } }`;
const captionSummary = ({ suggestions, creditsUsed }: { suggestions: string[]; creditsUsed: number }) =>
  `${suggestions.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n(${counted(creditsUsed, 'AI credit')} used)`;
const rewriteDocument = `mutation($caption: String!, $tone: String, $provider: Provider, $count: Int, $format: AiCaptionFormat) {
  suggestCaptions(action: REWRITE, caption: $caption, tone: $tone, provider: $provider, count: $count, format: $format) {
    suggestions threads { parts } creditsUsed creditsRemaining } }`;
type Rewrites = { suggestions: string[]; threads: { parts: string[] }[] | null; creditsUsed: number };
/** Each variant, or with format thread each variant's parts in order. */
const rewriteSummary = ({ suggestions, threads, creditsUsed }: Rewrites) =>
  threads
    ? captionSummary({ suggestions: threads.map(({ parts }) => parts.map((part, i) => `[${i + 1}/${parts.length}] ${part}`).join('\n   ')), creditsUsed })
    : captionSummary({ suggestions, creditsUsed });

export const libraryTools = [
  graphTool({
    name: 'list_queues',
    title: 'List queues',
    description: 'Lists posting queues: weekly time slots in a time zone, and the accounts each serves. Use a queue id with add_post_to_queue.',
    input: pageInput,
    output: {
      queues: z.array(
        z.looseObject({ id: z.string(), name: z.string(), timezone: z.string(), slots: z.array(z.looseObject({ day: z.string(), time: z.string() })) }),
      ),
      nextCursor,
    },
    annotations: reads,
    document: `query($first: Int, $after: String) { queues(first: $first, after: $after) { edges { node { id name timezone connectionIds slots { day time } createdAt } } pageInfo { hasNextPage endCursor } } }`,
    variables: pageVariables,
    result: (data) => {
      const page = pageOf<{ id: string; name: string; timezone: string; slots: { day: string; time: string }[] }>(data.queues);
      return { queues: page.items, nextCursor: page.nextCursor };
    },
    summary: ({ queues }) =>
      `${counted(queues.length, 'queue')}: ${queues.map((q) => `${q.name} (${q.id}, ${q.slots.length} slots, ${q.timezone})`).join('; ') || 'none'}.`,
  }),
  graphTool({
    name: 'list_media',
    title: 'List media files',
    description: 'Lists the media library, newest first. Only ready files can be attached to posts (create_post mediaIds).',
    input: {
      ...pageInput,
      q: z.string().optional().describe('Searched in file names and alt texts.'),
      type: z.enum(mediaTypes).optional().describe('Only files of this kind.'),
      status: z.enum(mediaStatuses).optional().describe('Only files in this state; `ready` ones can be attached.'),
    },
    output: { media: z.array(mediaShape), nextCursor },
    annotations: reads,
    document: `query($first: Int, $after: String, $q: String, $type: MediaType, $status: MediaStatus) {
      media(first: $first, after: $after, q: $q, type: $type, status: $status) { edges { node { ${mediaFields} } } pageInfo { hasNextPage endCursor } } }`,
    variables: (args) => ({ ...pageVariables(args), q: args.q, type: graphEnumOrNull(args.type), status: graphEnumOrNull(args.status) }),
    result: (data) => {
      const page = pageOf<z.infer<typeof mediaShape>>(data.media);
      return { media: page.items, nextCursor: page.nextCursor };
    },
    summary: ({ media, nextCursor }) =>
      `${counted(media.length, 'file')}: ${media.map((m) => `${m.filename} (${m.id}, ${m.status})`).join('; ') || 'none'}${nextCursor ? '; more with cursor' : ''}.`,
  }),
  graphTool({
    name: 'get_media',
    title: 'Get a media file',
    description:
      'One media file: status, kind, format, size (bytes), dimensions (px), duration (ms), alt text, a signed URL (1 hour) and the reason when processing failed.',
    input: { mediaId },
    output: media,
    annotations: reads,
    document: `query($id: ID!) { mediaFile(id: $id) { ${mediaFields} } }`,
    variables: (args) => ({ id: args.mediaId }),
    result: (data) => ({ media: data.mediaFile }),
    summary: mediaSummary,
  }),
  graphTool({
    name: 'upload_media',
    title: 'Upload a media file',
    description: `Adds an image or video to the library, from a URL (https, a public host, answering 200 with Content-Length; streamed, up to the upload size limit) or from base64 bytes (at most ${maxInlineBytes / 1024 / 1024} MB decoded). Waits up to 10 s for processing: the answer is READY (use its id in create_post mediaIds), FAILED with the reason, or PROCESSING (check later with get_media).`,
    input: {
      url: z.string().url().optional().describe('Where to fetch the file. Give url or base64.'),
      base64: z.string().optional().describe('The file bytes, base64-encoded. Give url or base64.'),
      filename: z.string().optional().describe('Required with base64, e.g. photo.jpg.'),
      contentType: z.string().optional().describe('Required with base64, e.g. image/jpeg.'),
    },
    output: media,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    document: `mutation($url: String, $base64: String, $filename: String, $contentType: String) {
      uploadMedia(url: $url, base64: $base64, filename: $filename, contentType: $contentType, waitSeconds: 10) { ${mediaFields} } }`,
    variables: (args) => ({ url: args.url, base64: args.base64, filename: args.filename, contentType: args.contentType }),
    result: (data) => ({ media: data.uploadMedia }),
    summary: mediaSummary,
  }),
  graphTool({
    name: 'set_alt_text',
    title: 'Set alt text',
    description:
      'Sets (or, with null, clears) a media file’s alt text, up to 2,000 characters; networks with a lower limit are checked per post. suggest_alt_text can draft it.',
    input: { mediaId, altText: z.string().nullable().describe('The description of the image for people who cannot see it.') },
    output: media,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    document: `mutation($id: ID!, $altText: String) { setAltText(id: $id, altText: $altText) { ${mediaFields} } }`,
    variables: (args) => ({ id: args.mediaId, altText: args.altText }),
    result: (data) => ({ media: data.setAltText }),
    summary: mediaSummary,
  }),
  graphTool({
    name: 'suggest_alt_text',
    title: 'Suggest alt text',
    description: 'Drafts alt text for a ready image with AI (costs AI credits; get_ai_status shows them). Not saved: pass it to set_alt_text.',
    input: { mediaId, language: z.string().optional().describe('BCP 47 tag such as en or de-DE; default: the request’s language.') },
    output: { altText: z.string(), ...credits },
    annotations: ai,
    document: 'mutation($mediaId: ID!, $language: String) { suggestAltText(mediaId: $mediaId, language: $language) { altText creditsUsed creditsRemaining } }',
    variables: (args) => ({ mediaId: args.mediaId, language: args.language }),
    result: (data) => data.suggestAltText,
    summary: ({ altText, creditsUsed }) => `${altText}\n(${counted(creditsUsed, 'AI credit')} used)`,
  }),
  graphTool({
    name: 'get_analytics',
    title: 'Get analytics',
    description:
      'Engagement of published posts (impressions, reach, likes, comments, shares, saves, clicks, video views) between two UTC dates, both included (at most 5 years apart), grouped by day, provider, account or post.',
    input: {
      from: z.string().describe('First day, YYYY-MM-DD (UTC).'),
      to: z.string().describe('Last day, YYYY-MM-DD (UTC), included.'),
      groupBy: z.enum(groupings).optional().describe('Default: day.'),
      provider: provider.optional().describe('Only posts on this network.'),
      connectionId: z.string().optional().describe('An account id from list_social_accounts.'),
      campaign: z.string().optional().describe('Only posts with this campaign label.'),
      status: z.array(z.enum(postStatuses)).optional().describe('Only posts in these states.'),
    },
    output: {
      from: z.string(),
      to: z.string(),
      groupBy: z.string(),
      totals: z.record(z.string(), z.number()),
      rows: z.array(z.looseObject({ key: z.string(), metrics: z.record(z.string(), z.number()) })),
    },
    annotations: reads,
    document: `query($from: String!, $to: String!, $groupBy: AnalyticsGrouping, $provider: Provider, $connectionId: ID, $campaign: String, $status: [PostStatus!]) {
      analytics(from: $from, to: $to, groupBy: $groupBy, provider: $provider, connectionId: $connectionId, campaign: $campaign, status: $status) {
        from to groupBy totals { impressions reach likes comments shares saves clicks videoViews }
        rows { key metrics { impressions reach likes comments shares saves clicks videoViews } } } }`,
    variables: (args) => ({
      from: args.from,
      to: args.to,
      groupBy: graphEnumOrNull(args.groupBy),
      provider: graphEnumOrNull(args.provider),
      connectionId: args.connectionId,
      campaign: args.campaign,
      status: args.status?.map(graphEnum),
    }),
    result: ({ analytics }) =>
      analytics.groupBy === 'provider'
        ? { ...analytics, rows: analytics.rows.map((row: { key: string }) => ({ ...row, key: networkName(row.key) })) }
        : analytics,
    summary: ({ from, to, totals, rows }) => `${from} to ${to}: ${totals.impressions} impressions, ${totals.likes} likes over ${counted(rows.length, 'row')}.`,
  }),
  graphTool({
    name: 'get_ai_status',
    title: 'Get AI status',
    description: 'Whether AI features are available, the credits left this month and what each feature costs in credits.',
    input: {},
    output: {
      available: z.boolean(),
      provider: z.string().nullable(),
      credits: z.looseObject({ monthly: z.number(), remaining: z.number(), resetsAt: z.string() }),
      costs: z.record(z.string(), z.number()),
    },
    annotations: reads,
    document: '{ ai { available provider credits { monthly remaining resetsAt } costs { caption translate hashtags altText image } } }',
    variables: () => ({}),
    result: (data) => data.ai,
    summary: ({ available, credits }) =>
      `AI ${available ? 'available' : 'not available'}; ${credits.remaining} of ${credits.monthly} credits left until ${credits.resetsAt}.`,
  }),
  graphTool({
    name: 'write_caption',
    title: 'Write caption variants',
    description: 'Rewrites a caption into variants with AI (costs AI credits), within a network’s caption rules when `provider` is given. Not saved.',
    input: {
      caption: z.string().describe('The draft or idea to rewrite.'),
      tone: z.string().optional().describe('e.g. friendly, professional, playful.'),
      provider: provider.optional().describe('Keep within this network’s caption rules.'),
      count: z.number().int().min(1).max(captionLimits.count.rewrite).optional().describe(`How many variants (default ${defaultCount.rewrite}).`),
      format: z
        .enum(captionFormats)
        .optional()
        .describe('thread: each variant also cut into the parts of a thread, each within the network’s limit (needs `provider`). Default post.'),
    },
    output: { ...suggestions, threads: z.array(z.object({ parts: z.array(z.string()) })).nullable() },
    annotations: ai,
    document: rewriteDocument,
    variables: (args) => ({
      caption: args.caption,
      tone: args.tone,
      provider: graphEnumOrNull(args.provider),
      count: args.count,
      format: graphEnumOrNull(args.format),
    }),
    result: (data) => data.suggestCaptions,
    summary: rewriteSummary,
  }),
  graphTool({
    name: 'translate_caption',
    title: 'Translate a caption',
    description: 'Translates a caption with AI (costs AI credits), keeping hashtags, mentions and links. Not saved.',
    input: {
      caption: z.string().describe('The caption to translate.'),
      targetLanguage: z.string().describe('BCP 47 tag, e.g. de, fr-CA, es.'),
      provider: provider.optional().describe('Keep within this network’s caption rules.'),
    },
    output: suggestions,
    annotations: ai,
    document: captionDocument,
    variables: (args) => ({ action: 'TRANSLATE', caption: args.caption, targetLanguage: args.targetLanguage, provider: graphEnumOrNull(args.provider) }),
    result: (data) => data.suggestCaptions,
    summary: captionSummary,
  }),
  graphTool({
    name: 'suggest_hashtags',
    title: 'Suggest hashtags',
    description: 'Suggests hashtags for a caption with AI (costs AI credits), within a network’s hashtag limit when `provider` is given. Not saved.',
    input: {
      caption: z.string().describe('The caption to find hashtags for.'),
      provider: provider.optional().describe('Keep within this network’s hashtag limit.'),
      count: z.number().int().min(1).max(captionLimits.count.hashtags).optional().describe(`How many hashtags (default ${defaultCount.hashtags}).`),
    },
    output: suggestions,
    annotations: ai,
    document: captionDocument,
    variables: (args) => ({ action: 'HASHTAGS', caption: args.caption, provider: graphEnumOrNull(args.provider), count: args.count }),
    result: (data) => data.suggestCaptions,
    summary: captionSummary,
  }),
  graphTool({
    name: 'generate_image',
    title: 'Generate an image',
    description:
      'Generates an image with AI (costs AI credits) into the media library. Answers its media id, processed like an upload: poll get_media until ready, then attach it with create_post mediaIds.',
    input: { prompt: z.string().describe('What the image shows.'), size: z.enum(imageSizes).optional().describe('Pixels; default 1024x1024.') },
    output: { mediaId: z.string() },
    annotations: ai,
    document: 'mutation($prompt: String!, $size: String) { generateImage(prompt: $prompt, size: $size) }',
    variables: (args) => ({ prompt: args.prompt, size: args.size }),
    result: (data) => ({ mediaId: data.generateImage as string }),
    summary: ({ mediaId }) => `Image ${mediaId} is being generated; get_media shows when it is ready.`,
  }),
];
