// Media added in one call from a URL or from base64 bytes (src/media/imports.ts), for agents and scripts.
import { builder } from '../builder.ts';
import { MediaFile } from './media.ts';
import { awaitProcessed, importFromBase64, importFromUrl, mediaImportDeps } from '../../src/media/imports.ts';
import { invalidRequest } from '../../src/errors/appError.ts';

const maxWaitSeconds = 10;

builder.mutationFields((t) => ({
  uploadMedia: t.field({
    type: MediaFile,
    description:
      'Adds a file to the library from a URL (https, public hosts; streamed, up to the upload size limit) or from base64 bytes (at most 20 MB decoded), then processes it like an upload. Waits up to `waitSeconds` for processing to end.',
    args: {
      url: t.arg.string({ description: 'Where to fetch the file; its answer must be 200 with a Content-Length.' }),
      base64: t.arg.string({ description: 'The file’s bytes, base64-encoded.' }),
      filename: t.arg.string({ description: 'Required with base64; from a URL, its last path segment by default.' }),
      contentType: t.arg.string({ description: 'Required with base64 (the real type is detected from the bytes).' }),
      waitSeconds: t.arg.int({ description: `0 (default) to ${maxWaitSeconds}.` }),
    },
    authScopes: { operation: 'startUpload' },
    resolve: async (_root, args, context) => {
      const wait = args.waitSeconds ?? 0;
      if (!Number.isInteger(wait) || wait < 0 || wait > maxWaitSeconds) {
        throw invalidRequest([{ field: 'waitSeconds', code: 'maximum', messageKey: 'detail.maximum', params: { limit: maxWaitSeconds } }]);
      }
      if ((args.url == null) === (args.base64 == null)) {
        throw invalidRequest([{ field: args.url == null ? 'url' : 'base64', code: 'oneOf', messageKey: 'detail.oneFileSource' }]);
      }
      const media =
        args.url != null
          ? await importFromUrl(mediaImportDeps(context.services), context.actor, { url: args.url, filename: args.filename ?? undefined })
          : await importFromBase64(mediaImportDeps(context.services), context.actor, {
              base64: args.base64!,
              filename: args.filename ?? '',
              contentType: args.contentType ?? '',
            });
      return wait ? awaitProcessed(context.services.db, context.actor, media.id, wait * 1000) : media;
    },
  }),
}));
