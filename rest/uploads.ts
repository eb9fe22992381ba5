// The bytes of uploads and media files, outside /v1: a signed PUT carrying the whole file, the resumable tus
// protocol (@tus/server) for large files, and signed, expiring downloads of files and thumbnails.
import express, { type Request, type Response, type Router } from 'express';
import { Server as TusServer } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { rm } from 'node:fs/promises';
import { AppError, notFound } from '../src/errors/appError.ts';
import type { Services } from '../src/runtime.ts';
import { receiveUpload, uploadAllowedBy } from '../src/media/uploads.ts';
import { signedFile } from '../src/media/library.ts';
import { localizeError } from '../src/errors/localize.ts';
import { contextOf } from './requestContext.ts';
import { isUuid } from '../src/ids.ts';

function tusServer(services: Services): TusServer {
  const directory = services.storage.localPath('uploads');
  const tokenOf = (headers: { get(name: string): string | null }) => (headers.get('x-upload-token') ?? '').split('.');
  const refuse = (error: unknown) => {
    const appError = error instanceof AppError ? error : new AppError('INTERNAL', 'internal');
    return { status_code: appError.httpStatus, body: JSON.stringify({ error: localizeError(appError, 'en') }) };
  };
  return new TusServer({
    path: '/uploads/tus',
    datastore: new FileStore({ directory }),
    generateUrl: (_req, { path, id }) => `${services.config.publicBaseUrl}${path}/${id}`,
    // The upload was started through the API; tus only carries its bytes, under the same id.
    namingFunction: (_req, metadata) => metadata?.uploadId ?? '',
    maxSize: async (_req, id) => (id && isUuid(id) ? Number((await services.db.prisma.media.findUnique({ where: { id } }))?.size ?? 1) : 1),
    onIncomingRequest: async (req, id) => {
      const [expires, signature] = tokenOf(req.headers);
      try {
        await uploadAllowedBy(services.db, services.signer, id, expires, signature);
      } catch (error) {
        throw refuse(error);
      }
    },
    // The finished file stays where the media library reads it; tus's own record of the upload goes.
    onUploadFinish: async (_req, upload) => {
      await rm(`${directory}/${upload.id}.json`, { force: true });
      return {};
    },
  });
}

export function uploadsRouter(services: Services): Router {
  const router = express.Router();
  const tus = tusServer(services);
  router.all(['/uploads/tus', '/uploads/tus/*path'], (req: Request, res: Response) => {
    contextOf(res).route = '/uploads/tus';
    void tus.handle(req, res);
  });
  router.put('/uploads/:id', async (req: Request<{ id: string }>, res: Response) => {
    contextOf(res).route = '/uploads/{id}';
    const received = await receiveUpload(services.db, services.storage, services.signer, req.params.id, req.query.expires, req.query.signature, req);
    res.status(200).json({ data: { id: req.params.id, receivedBytes: received } });
  });
  router.get('/media-files/:id/:variant', async (req: Request<{ id: string; variant: string }>, res: Response) => {
    contextOf(res).route = '/media-files/{id}/{variant}';
    const file = await signedFile(services.db, services.signer, req.params.id, req.params.variant, req.query.expires, req.query.signature);
    if (!file) throw notFound('file');
    res.setHeader('content-type', file.contentType);
    res.setHeader('cache-control', 'private, max-age=300');
    res.setHeader('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    services.storage.read(file.key).on('error', () => res.destroy()).pipe(res);
  });
  return router;
}
