import { builder } from '../builder.ts';
import { Provider } from '../enums.ts';
import { listProviders, type ConnectionEntry, type ProviderEntry } from '../../src/accounts/providers.ts';
import type { CredentialField } from '../../src/providers/network.ts';
import type { CaptionRules, FileRules, MediaCountRules, PlacementRules, ThreadRules, VideoFileRules } from '../../src/providers/rules.ts';

const CaptionRulesRef = builder.objectRef<CaptionRules>('CaptionRules').implement({
  fields: (t) => ({
    maxLength: t.exposeInt('maxLength'),
    maxLengthWithMedia: t.exposeInt('maxLengthWithMedia', {
      nullable: true,
      description: 'Where a post with media allows a shorter text (a Telegram caption), the limit then.',
    }),
    countedIn: t.exposeString('countedIn', { description: "characters, graphemes, or weighted (X's count: links 23, CJK and emoji 2)" }),
    required: t.exposeBoolean('required'),
    maxHashtags: t.exposeInt('maxHashtags', { nullable: true }),
    maxLinks: t.exposeInt('maxLinks', { nullable: true }),
    charactersPerUrl: t.exposeInt('charactersPerUrl', {
      nullable: true,
      description: 'Networks that shorten links count each link as this many characters; null: as written.',
    }),
  }),
});

const MediaCountRulesRef = builder.objectRef<MediaCountRules>('MediaCountRules').implement({
  fields: (t) => ({
    min: t.exposeInt('min'),
    max: t.exposeInt('max'),
    kinds: t.exposeStringList('kinds'),
    maxVideos: t.exposeInt('maxVideos'),
    mixedKinds: t.exposeBoolean('mixedKinds'),
  }),
});

const RangeRef = builder.objectRef<{ min: number; max: number }>('Range').implement({
  fields: (t) => ({ min: t.exposeFloat('min'), max: t.exposeFloat('max') }),
});

const DurationRef = builder.objectRef<{ minDurationMs: number; maxDurationMs: number }>('DurationRules').implement({
  fields: (t) => ({ minDurationMs: t.exposeInt('minDurationMs'), maxDurationMs: t.exposeInt('maxDurationMs') }),
});

const ThreadRulesRef = builder.objectRef<ThreadRules>('ThreadRules').implement({
  fields: (t) => ({ maxParts: t.exposeInt('maxParts', { description: 'The most parts that may follow the first post.' }) }),
});

const PlacementRulesRef = builder.objectRef<PlacementRules>('PlacementRules').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    caption: t.expose('caption', { type: CaptionRulesRef }),
    media: t.expose('media', { type: MediaCountRulesRef }),
    aspectRatio: t.expose('aspectRatio', { type: RangeRef, nullable: true, description: 'Allowed width/height ratio, inclusive.' }),
    video: t.expose('video', { type: DurationRef, nullable: true }),
    thread: t.expose('thread', {
      type: ThreadRulesRef,
      nullable: true,
      description: 'Whether the placement takes threads (`content.thread`); null: a thread is refused here.',
    }),
  }),
});

const FileRulesRef = builder.objectRef<FileRules | VideoFileRules>('FileRules').implement({
  fields: (t) => ({
    formats: t.exposeStringList('formats'),
    maxBytes: t.float({ resolve: (rules) => rules.maxBytes }),
    minWidth: t.exposeInt('minWidth', { nullable: true }),
    maxWidth: t.exposeInt('maxWidth', { nullable: true }),
    maxPixels: t.exposeInt('maxPixels', { nullable: true }),
    minDurationMs: t.int({ nullable: true, resolve: (rules) => ('minDurationMs' in rules ? rules.minDurationMs : null) }),
    maxDurationMs: t.int({ nullable: true, resolve: (rules) => ('maxDurationMs' in rules ? rules.maxDurationMs : null) }),
  }),
});

const CredentialFieldRef = builder.objectRef<CredentialField>('CredentialField').implement({
  description: 'One thing a person types to connect an account of a credential network (Bluesky, Telegram).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its key in `credentials` (addSocialAccount).' }),
    label: t.exposeString('label'),
    secret: t.exposeBoolean('secret', { description: 'Kept sealed, never shown again: a password input.' }),
    format: t.exposeString('format', { description: '`text`, or `url` (an address of the person’s server).' }),
    required: t.exposeBoolean('required'),
    maxLength: t.exposeInt('maxLength'),
    pattern: t.exposeString('pattern', { nullable: true, description: 'The regular expression the whole value must match.' }),
    help: t.exposeString('help', { description: 'Where a person finds the value.' }),
  }),
});

const ConnectionRef = builder.objectRef<ConnectionEntry>('ProviderConnection').implement({
  description: 'How accounts of a network are connected on this installation.',
  fields: (t) => ({
    method: t.exposeString('method', { description: '`oauth2` (startAccountConnection), `credentials` or `local` (addSocialAccount).' }),
    fields: t.field({ type: [CredentialFieldRef], description: 'A credential network’s fields; empty for the others.', resolve: (entry) => [...entry.fields] }),
  }),
});

const ProviderRulesRef = builder.objectRef<ProviderEntry>('ProviderRules').implement({
  description: 'A network’s formats, placements and limits, as GET /v1/providers returns them.',
  fields: (t) => ({
    provider: t.expose('provider', { type: Provider }),
    displayName: t.exposeString('displayName'),
    placements: t.expose('placements', { type: [PlacementRulesRef] }),
    image: t.expose('image', { type: FileRulesRef }),
    gif: t.expose('gif', { type: FileRulesRef, nullable: true }),
    video: t.expose('video', { type: FileRulesRef, nullable: true }),
    altTextMaxLength: t.int({ nullable: true, resolve: (rules) => rules.altText?.maxLength ?? null }),
    settings: t.field({
      type: 'JSON',
      description: 'The network’s `targets[].settings` as a JSON Schema (2020-12) with defaults.',
      resolve: (rules) => rules.settings,
    }),
    postingLimits: t.exposeStringList('postingLimits'),
    notes: t.exposeStringList('notes'),
    publishing: t.exposeBoolean('publishing', {
      description: 'Whether this service publishes to the network: every network it names does (kept for clients that read it).',
    }),
    configured: t.exposeBoolean('configured', { description: 'Whether accounts of this network can be connected on this installation.' }),
    connection: t.expose('connection', {
      type: ConnectionRef,
      nullable: true,
      description: 'How accounts are connected here, and a credential network’s fields; null when not configured.',
    }),
    connectionMethods: t.exposeStringList('connectionMethods', {
      description:
        'The ways of connecting set up here where the network offers several (Instagram: facebook_login, instagram_login), the default first; empty for the others.',
    }),
    requiredSettings: t.exposeStringList('requiredSettings', {
      description: 'The operator’s settings its connection needs (its app at the network: `X_CLIENT_ID`, `X_CLIENT_SECRET`); empty where none.',
    }),
  }),
});

builder.queryField('providers', (t) =>
  t.field({
    type: [ProviderRulesRef],
    authScopes: { operation: 'listProviders' },
    resolve: (_root, _args, context) => listProviders(context.actor, context.services.connections.links, context.services.config).data,
  }),
);
