import { builder } from '../builder.ts';
import { pageRequest, toConnection } from '../connections.ts';
import { defineLoader } from '../loaders.ts';
import { MediaStatus, MediaType } from '../enums.ts';
import { deleteMedia, getMedia, listMedia, mediaFileUrl, mediaPosition, setAltText, type MediaVariant } from '../../src/media/library.ts';
import { completeUpload, startUpload } from '../../src/media/uploads.ts';
import { mediaOf } from '../../src/media/facts.ts';
import type { Media } from '../../src/db/generated/prisma/client.ts';
import type { GraphContext } from '../builder.ts';
import { storedError } from '../../src/errors/appError.ts';

const MediaError = builder.objectRef<{ code: string; message: string }>('MediaError').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

/** A signed URL of the file, signed only when asked for. */
const fileUrl = (media: Media, variant: MediaVariant, context: GraphContext) =>
  mediaFileUrl(media, variant, context.services.signer, context.services.config.publicBaseUrl);

/** Files of the caller's workspace by id, every file a request's posts name loaded with one query. */
export const mediaLoader = defineLoader(async (context, ids) => {
  const files = await mediaOf(context.services.db.prisma, context.actor.workspaceId, ids);
  return new Map(files.map((file) => [file.id, file]));
});

export const MediaFile = builder.objectRef<Media>('MediaFile').implement({
  description: 'A file of the media library.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: MediaStatus, resolve: (media) => media.status as never }),
    type: t.field({ type: MediaType, nullable: true, resolve: (media) => media.type as never }),
    filename: t.exposeString('filename'),
    mimeType: t.exposeString('mimeType', { nullable: true }),
    format: t.exposeString('format', { nullable: true }),
    size: t.float({ description: 'Bytes.', resolve: (media) => Number(media.size) }),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    codecs: t.exposeStringList('codecs'),
    altText: t.exposeString('altText', { nullable: true }),
    url: t.string({
      nullable: true,
      description: 'Signed, expiring URL of the file, once it is ready.',
      resolve: (media, _args, context) => fileUrl(media, 'original', context),
    }),
    thumbnailUrl: t.string({ nullable: true, resolve: (media, _args, context) => fileUrl(media, 'thumbnail', context) }),
    error: t.field({ type: MediaError, nullable: true, resolve: (media) => storedError(media) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type UploadStart = Awaited<ReturnType<typeof startUpload>>;

const ResumableUpload = builder.objectRef<UploadStart['resumable']>('ResumableUpload').implement({
  description: 'The tus 1.0 protocol, for large files: create the upload at `endpoint` with these headers and metadata.',
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    version: t.exposeString('version'),
    endpoint: t.exposeString('endpoint'),
    headers: t.field({ type: 'JSON', resolve: (resumable) => resumable.headers }),
    metadata: t.field({ type: 'JSON', resolve: (resumable) => resumable.metadata }),
    chunkSize: t.float({ description: 'Bytes per PATCH suggested.', resolve: (resumable) => resumable.chunkSize }),
  }),
});

type UploadParts = NonNullable<UploadStart['parts']>;

const UploadPart = builder.objectRef<UploadParts['parts'][number]>('UploadPart').implement({
  description: 'One part of a file sent in parts: bytes `bytes`, from `(partNumber - 1) × partBytes`, in one request of `method` to `url` with `headers`.',
  fields: (t) => ({
    partNumber: t.exposeInt('partNumber'),
    bytes: t.float({ resolve: (part) => part.bytes }),
    url: t.exposeString('url'),
    method: t.exposeString('method'),
    headers: t.field({ type: 'JSON', resolve: (part) => part.headers }),
  }),
});

const UploadPartsObject = builder.objectRef<UploadParts>('UploadParts').implement({
  description:
    'The bucket’s presigned part URLs, for a file past its single-request limit: send every part (in any order, again if one fails), then completeUpload. The bytes never pass through this service.',
  fields: (t) => ({
    partBytes: t.float({ description: 'Bytes of every part but the last.', resolve: (parts) => parts.partBytes }),
    parts: t.field({ type: [UploadPart], resolve: (parts) => parts.parts }),
  }),
});

const Upload = builder.objectRef<UploadStart>('Upload').implement({
  description:
    'Where to send a file: one request of `method` to `uploadUrl` with `headers` and the whole file as its body (with MEDIA_STORAGE=s3 a presigned URL of the bucket, which binds the type and length); or, when `parts` is given, its parts there; then completeUpload.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The media file’s id, also the upload’s.' }),
    uploadUrl: t.exposeString('uploadUrl'),
    method: t.exposeString('method'),
    headers: t.field({ type: 'JSON', resolve: (upload) => upload.headers }),
    expiresAt: t.exposeString('expiresAt'),
    maxBytes: t.float({ resolve: (upload) => upload.maxBytes }),
    parts: t.field({ type: UploadPartsObject, nullable: true, resolve: (upload) => upload.parts }),
    resumable: t.field({ type: ResumableUpload, resolve: (upload) => upload.resumable }),
  }),
});

builder.queryFields((t) => ({
  media: t.connection({
    type: MediaFile,
    args: {
      q: t.arg.string({ description: 'Searched in file names and alt texts.' }),
      type: t.arg({ type: MediaType }),
      status: t.arg({ type: MediaStatus }),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
    },
    authScopes: { operation: 'listMedia' },
    resolve: async (_root, args, context) => {
      const filters = {
        q: args.q ?? undefined,
        type: args.type ?? undefined,
        status: args.status ?? undefined,
        from: args.from ?? undefined,
        to: args.to ?? undefined,
      };
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
  startUpload: t.field({
    type: Upload,
    description: 'Starts an upload (POST /v1/media/uploads): the bytes go to the URL answered, not through the graph.',
    args: {
      filename: t.arg.string({ required: true }),
      contentType: t.arg.string({ required: true, description: 'As declared; the real type is detected from the bytes.' }),
      size: t.arg.float({ required: true, description: 'Bytes.' }),
    },
    authScopes: { operation: 'startUpload' },
    resolve: (_root, args, context) =>
      startUpload(
        context.services.db,
        context.services.storage,
        context.services.signer,
        { publicBaseUrl: context.services.config.publicBaseUrl, maxUploadBytes: context.services.config.maxUploadBytes },
        context.actor,
        args,
      ),
  }),
  completeUpload: t.field({
    type: MediaFile,
    description: 'Completes an upload once its bytes are sent; the file is then checked and processed (`PROCESSING`).',
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
