// The bytes of uploads and media files, outside /v1: a signed PUT carrying the whole file, the resumable tus
// protocol (@tus/server) for large files, and signed, expiring downloads of files and thumbnails.
import express, { type Request, type Response, type Router } from 'express';
import { Server as TusServer } from '@tus/server';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { AppError, notFound, type ErrorDetail } from '../src/errors/appError.ts';
import type { Services } from '../src/runtime.ts';
import { receiveUpload, refuseSecondFile, storageUnavailable, uploadAllowedBy } from '../src/media/uploads.ts';
import { fileUrlTtlSeconds, signedFile } from '../src/media/library.ts';
import { storageKeys } from '../src/media/storage.ts';
import { contextOf } from './requestContext.ts';
import { mediaFilePolicy } from './securityHeaders.ts';
import { isUuid } from '../src/ids.ts';

/** A refusal by tus itself, in our shape. Its status stays: tus clients act on it (409: ask where to resume). */
function tusRefusal(status: number): AppError {
  if (status === 404 || status === 410) return new AppError('NOT_FOUND', 'notFound', { kind: 'upload' }, { status });
  if (status === 409) return new AppError('CONFLICT', 'tusOffsetConflict', {}, { status });
  if (status >= 500) return new AppError('INTERNAL', 'internal', {}, { status });
  const detail: ErrorDetail =
    status === 412
      ? { field: 'tus-resumable', code: 'tusVersion', messageKey: 'detail.tusVersion' }
      : status === 413
        ? { field: 'body', code: 'tooLarge', messageKey: 'detail.tusTooLarge' }
        : { field: 'tus', code: 'tusProtocol', messageKey: 'detail.tusProtocol' };
  return new AppError('INVALID_REQUEST', 'invalidRequest', { count: 1 }, { details: [detail], status });
}

/** The express request as a web Request, as @tus/server's handleWeb takes it (the body streamed, not buffered). */
function webRequestOf(req: Request, baseUrl: string): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, [value].flat().join(', '));
  let body: ReadableStream | null = null;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // pipeline, unlike pipe, passes the sender's abort on to the body (and a cancel back to the request).
    const received = new PassThrough();
    pipeline(req, received).catch(() => {});
    body = Readable.toWeb(received) as ReadableStream;
  }
  return new Request(new URL(req.originalUrl, baseUrl), { method: req.method, headers, body, duplex: 'half' } as RequestInit);
}

/** A tus upload's id is the storage key of its file; its URL names the upload's id alone. */
const uploadIdOf = (key: string) => key.slice(storageKeys.original('').length);

/**
 * tus carries the bytes of an upload started through the API, under the same id. Every answer it gives that is
 * not a success goes out in the API's error shape (with requestId, in the caller's language), whether tus refused
 * (protocol), our checks refused (the token, a second file), or something failed.
 */
function tusUploads(services: Services): (req: Request, res: Response) => Promise<void> {
  const tokenOf = (headers: { get(name: string): string | null }) => (headers.get('x-upload-token') ?? '').split('.');
  /** Our own errors, by the request tus was handling when it caught them (tus keeps only a status and a text). */
  const failures = new WeakMap<object, unknown>();
  const tus = new TusServer({
    path: '/uploads/tus',
    datastore: services.storage.resumable,
    generateUrl: (_req, { path, id }) => `${services.config.publicBaseUrl}${path}/${uploadIdOf(id)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath && isUuid(lastPath) ? storageKeys.original(lastPath) : undefined),
    namingFunction: (_req, metadata) => storageKeys.original(metadata?.uploadId ?? ''),
    maxSize: async (_req, key) => {
      const id = key ? uploadIdOf(key) : '';
      return isUuid(id) ? Number((await services.db.prisma.media.findUnique({ where: { id } }))?.size ?? 1) : 1;
    },
    onIncomingRequest: async (req, key) => {
      const [expires, signature] = tokenOf(req.headers);
      const id = uploadIdOf(key);
      await uploadAllowedBy(services.db, services.signer, id, expires, signature);
      if (req.method === 'POST') await refuseSecondFile(services.storage, id);
    },
    onResponseError: (req, error) => {
      // Besides our own refusals, what fails inside tus is its store: the upload keeps what was stored so far.
      if (!('status_code' in error)) failures.set(req, error instanceof AppError ? error : storageUnavailable(error));
      return undefined;
    },
    // The finished file stays where the media library reads it; tus's own record of the upload goes.
    onUploadFinish: async (_req, upload) => {
      await services.storage.forgetResumable(upload.id);
      return {};
    },
  });
  return async (req, res) => {
    const request = webRequestOf(req, services.config.publicBaseUrl);
    const response = await tus.handleWeb(request);
    response.headers.forEach((value, name) => {
      if (response.ok || !/^content-(length|type)$/i.test(name)) res.setHeader(name, value);
    });
    if (!response.ok) {
      // What tus left of the body is read and dropped, and the connection is not kept: the sender gets the answer
      // rather than a reset, and its next request does not land on a connection still holding this one's body.
      if (request.body && !request.body.locked) void request.body.pipeTo(new WritableStream()).catch(() => {});
      res.setHeader('connection', 'close');
      throw failures.get(request) ?? tusRefusal(response.status);
    }
    res.status(response.status);
    // pipeline, unlike pipe, ends the source when the receiver goes away, and has the source's failure handled.
    if (response.body) await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res).catch(() => {});
    else res.end();
  };
}

export function uploadsRouter(services: Services): Router {
  const router = express.Router();
  const tus = tusUploads(services);
  router.all(['/uploads/tus', '/uploads/tus/*path'], async (req: Request, res: Response) => {
    contextOf(res).route = '/uploads/tus';
    await tus(req, res);
  });
  router.put('/uploads/:id', async (req: Request<{ id: string }>, res: Response) => {
    contextOf(res).route = '/uploads/{id}';
    const { id } = req.params;
    // The store gets a stream fed by the request, not the request: when storing fails, the rest of the body is
    // read and dropped, and the sender gets the answer rather than a reset connection.
    const body = req.pipe(new PassThrough());
    // A sender breaking off ends the body short, and the upload is refused as incomplete (pipe passes no error on:
    // the store would wait for the rest forever, its file open).
    req.once('error', () => body.end());
    try {
      const received = await receiveUpload(services.db, services.storage, services.signer, {
        id,
        expires: req.query.expires,
        signature: req.query.signature,
        contentType: req.get('content-type'),
        body,
      });
      res.status(200).json({ data: { id, receivedBytes: received } });
    } catch (error) {
      req.unpipe(body);
      req.resume();
      res.setHeader('connection', 'close');
      throw error;
    }
  });
  router.get('/media-files/:id/:variant', async (req: Request<{ id: string; variant: string }>, res: Response) => {
    contextOf(res).route = '/media-files/{id}/{variant}';
    const file = await signedFile(services.db, services.signer, req.params.id, req.params.variant, req.query.expires, req.query.signature);
    if (!file) throw notFound('file');
    // A store of its own (S3) serves the bytes itself, through a presigned URL that expires with this one.
    const expiresInSeconds = Math.max(1, Math.min(fileUrlTtlSeconds, Number(req.query.expires) - Math.floor(Date.now() / 1000)));
    const direct = await services.storage.directUrl(file.key, { expiresInSeconds, contentType: file.contentType, contentDisposition: file.contentDisposition });
    if (direct) return res.redirect(302, direct);
    res.setHeader('content-type', file.contentType);
    res.setHeader('cache-control', 'private, max-age=300');
    res.setHeader('content-disposition', file.contentDisposition);
    res.setHeader('content-security-policy', mediaFilePolicy);
    await pipeline(services.storage.read(file.key), res).catch(() => {});
  });
  return router;
}
