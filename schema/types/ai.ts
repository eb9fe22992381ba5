// AI for the dashboard: the `ai` status and the AI mutations, each the domain operation REST calls (same scopes,
// rules, credits and error codes).
import { builder } from '../builder.ts';
import { Provider } from '../enums.ts';
import { AiCredits } from './viewer.ts';
import { captionFormats, suggestCaptions } from '../../src/ai/captions.ts';
import { suggestAltText } from '../../src/ai/altText.ts';
import { requestImage } from '../../src/ai/images.ts';
import { captionActions, type CaptionAction } from '../../src/ai/provider.ts';
import type { Ai } from '../../src/ai/ai.ts';

type AiStatus = Awaited<ReturnType<Ai['status']>>;

const AiCaptionAction = builder.enumType('AiCaptionAction', {
  description: 'What POST /ai/captions does: rewrite (with a tone), translate, or suggest hashtags.',
  values: Object.fromEntries(captionActions.map((action) => [action.toUpperCase(), { value: action, description: `REST: \`${action}\`` }])) as Record<
    string,
    { value: CaptionAction }
  >,
});

const AiCaptionFormat = builder.enumType('AiCaptionFormat', {
  description: 'How caption suggestions come: as posts, or each rewrite also cut into the parts of a thread (REST `format`).',
  values: Object.fromEntries(captionFormats.map((format) => [format.toUpperCase(), { value: format, description: `REST: \`${format}\`` }])) as Record<
    string,
    { value: (typeof captionFormats)[number] }
  >,
});

const AiCosts = builder.objectRef<AiStatus['costs']>('AiCosts').implement({
  description: 'Credits each AI action costs, charged only when it succeeds.',
  fields: (t) => ({
    caption: t.exposeInt('caption'),
    translate: t.exposeInt('translate'),
    hashtags: t.exposeInt('hashtags'),
    altText: t.exposeInt('altText'),
    image: t.exposeInt('image'),
  }),
});

const AiStatusRef = builder.objectRef<AiStatus>('AiStatus').implement({
  fields: (t) => ({
    available: t.exposeBoolean('available'),
    provider: t.exposeString('provider', { nullable: true, description: '`openai`, `sandbox` (offline, deterministic), or null when AI is not configured.' }),
    credits: t.field({ type: AiCredits, resolve: (status) => status.credits }),
    costs: t.field({ type: AiCosts, resolve: (status) => status.costs }),
  }),
});

const CaptionThread = builder.objectRef<{ parts: string[] }>('CaptionThread').implement({
  description: 'A suggestion cut into the parts of a thread, each within the network’s limit.',
  fields: (t) => ({ parts: t.exposeStringList('parts', { description: 'In order: the first post, then each reply.' }) }),
});

const CaptionSuggestions = builder
  .objectRef<{ suggestions: string[]; threads?: string[][]; creditsUsed: number; creditsRemaining: number }>('CaptionSuggestions')
  .implement({
    fields: (t) => ({
      suggestions: t.exposeStringList('suggestions'),
      threads: t.field({
        type: [CaptionThread],
        nullable: true,
        description: 'With format THREAD: each suggestion as the parts of a thread.',
        resolve: (result) => result.threads?.map((parts) => ({ parts })) ?? null,
      }),
      creditsUsed: t.exposeInt('creditsUsed'),
      creditsRemaining: t.exposeInt('creditsRemaining'),
    }),
  });

const AltTextSuggestion = builder.objectRef<{ altText: string; creditsUsed: number; creditsRemaining: number }>('AltTextSuggestion').implement({
  fields: (t) => ({ altText: t.exposeString('altText'), creditsUsed: t.exposeInt('creditsUsed'), creditsRemaining: t.exposeInt('creditsRemaining') }),
});

builder.queryField('ai', (t) =>
  t.field({
    type: AiStatusRef,
    authScopes: { operation: 'getAi' },
    resolve: (_root, _args, context) => context.services.ai.status(context.actor),
  }),
);

builder.mutationFields((t) => ({
  suggestCaptions: t.field({
    type: CaptionSuggestions,
    description: 'Caption rewrites, a translation or hashtags, not saved (REST: POST /v1/ai/captions).',
    args: {
      action: t.arg({ type: AiCaptionAction, required: true }),
      caption: t.arg.string({ required: true }),
      targetLanguage: t.arg.string({ description: 'BCP 47 tag; required to translate.' }),
      tone: t.arg.string(),
      provider: t.arg({ type: Provider, description: 'A network whose caption rules the suggestions respect.' }),
      count: t.arg.int(),
      format: t.arg({ type: AiCaptionFormat, description: 'THREAD (with REWRITE and provider): each rewrite also cut into the parts of a thread.' }),
    },
    authScopes: { operation: 'suggestCaptions' },
    resolve: (_root, args, context) => suggestCaptions(context.services.ai, context.actor, args),
  }),
  suggestAltText: t.field({
    type: AltTextSuggestion,
    description: 'Alt text for a ready image, not saved (REST: POST /v1/media/{id}/alt-text/suggestion).',
    args: { mediaId: t.arg.id({ required: true }), language: t.arg.string({ description: 'BCP 47 tag; else the request’s language.' }) },
    authScopes: { operation: 'suggestAltText' },
    resolve: (_root, args, context) => suggestAltText(context.services.ai, context.actor, String(args.mediaId), { language: args.language }, context.language),
  }),
  generateImage: t.id({
    description: 'Starts generating an image; answers the id of the media file, ready like an upload (REST: POST /v1/ai/images).',
    args: { prompt: t.arg.string({ required: true }), size: t.arg.string({ description: '1024x1024 (default), 1024x1536 or 1536x1024.' }) },
    authScopes: { operation: 'generateImage' },
    resolve: async (_root, args, context) => (await requestImage(context.services.ai, context.actor, args)).mediaId,
  }),
}));
