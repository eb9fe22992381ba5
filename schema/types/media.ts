import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { deleteMedia, getMedia, listMedia, mediaPosition, presentMedia, setAltText } from '../../src/media/library.ts';
import { completeUpload } from '../../src/media/uploads.ts';
import type { Media } from '../../src/db/generated/prisma/client.ts';
import type { GraphContext } from '../builder.ts';
import { storedError } from '../../src/errors/appError.ts';

const MediaError = builder.objectRef<{ code: string; message: string }>('MediaError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const view = (media: Media, context: GraphContext) => presentMedia(media, context.services.signer, context.services.config.publicBaseUrl);

const MediaFile = builder.objectRef<Media>('MediaFile').implement({
  description: 'A file of the media library.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status'),
    type: t.exposeString('type', { nullable: true }),
    filename: t.exposeString('filename'),
    mimeType: t.exposeString('mimeType', { nullable: true }),
    format: t.exposeString('format', { nullable: true }),
    size: t.float({ resolve: (media) => Number(media.size) }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    codecs: t.exposeStringList('codecs'),
    altText: t.exposeString('altText', { nullable: true }),
    url: t.string({ nullable: true, description: 'Signed, expiring URL of the file.', resolve: (media, _args, context) => view(media, context).url }),
    thumbnailUrl: t.string({ nullable: true, resolve: (media, _args, context) => view(media, context).thumbnailUrl }),
    error: t.field({ type: MediaError, nullable: true, resolve: (media) => storedError(media) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  media: t.connection({
    type: MediaFile,
    args: { q: t.arg.string(), type: t.arg.string(), status: t.arg.string(), from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    authScopes: { operation: 'listMedia' },
    resolve: async (_root, args, context) => {
      const filters = { q: args.q ?? undefined, type: args.type ?? undefined, status: args.status ?? undefined, from: args.from ?? undefined, to: args.to ?? undefined };
      return toConnection(await listMedia(context.services.db, context.actor, filters, pageRequest(args)), mediaPosition);
    },
  }),
  mediaFile: t.field({
    type: MediaFile,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'getMedia' },
    resolve: (_root, args, context) => getMedia(context.services.db, context.actor, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  completeUpload: t.field({
    type: MediaFile,
    description: 'Uploads start with POST /v1/media/uploads (the bytes go to a URL, not through the graph).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'completeUpload' },
    resolve: (_root, args, context) => completeUpload(context.services.db, context.services.boss, context.services.storage, context.actor, String(args.id)),
  }),
  setAltText: t.field({
    type: MediaFile,
    args: { id: t.arg.id({ required: true }), altText: t.arg.string() },
    authScopes: { operation: 'setAltText' },
    resolve: (_root, args, context) => setAltText(context.services.db, context.actor, String(args.id), args.altText ?? null),
  }),
  deleteMedia: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    authScopes: { operation: 'deleteMedia' },
    resolve: async (_root, args, context) => {
      await deleteMedia(context.services.db, context.services.storage, context.actor, String(args.id));
      return true;
    },
  }),
}));
