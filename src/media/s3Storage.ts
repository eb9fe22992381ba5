// Media in an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Backblaze B2, Ceph). Clients send their
// files straight to the bucket through presigned PUTs (one, or a multipart upload's parts past the single-PUT
// limit); what this service writes itself (imports, thumbnails, a PUT to its own upload URL) streams into one PUT
// or a multipart upload; tus writes through @tus/s3-store; downloads are presigned GETs. An object appears only
// when its upload completes, so a failed upload leaves nothing to read.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { S3Store } from '@tus/s3-store';
import {
  AlreadyStoredError,
  exactBytes,
  IncompleteError,
  StorageUnavailableError,
  TooLargeError,
  type ByteRange,
  type DirectUpload,
  type MediaStorage,
  type PresignedRequest,
} from './storage.ts';

export interface S3Settings {
  /** Absent: AWS S3 itself, at the region's endpoint. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, Ceph, most local servers). */
  forcePathStyle: boolean;
  /** The largest file sent as one PUT; larger ones go up in parts (S3_SINGLE_PUT_MAX_BYTES). */
  singlePutBytesAtMost: number;
}

/**
 * A signed PUT's body is streamed on as it arrives and never held, so a failed part could not be sent again and
 * parts running side by side would each wait for the sender anyway: a multipart upload brings nothing but more
 * requests and the store's assembly of the parts. A file goes up in one PUT up to the store's single-request limit
 * (S3Settings.singlePutBytesAtMost), beyond it in parts of 64 MiB or more (S3 takes 5 MiB at least and 10,000 parts
 * at most), one after the other. Either way no byte is gathered in memory, and a streamed body is sent unhashed (the
 * SDK signs it UNSIGNED-PAYLOAD), where a buffered part would be hashed (SHA-256) before it is sent.
 */
export const partBytesAtLeast = 64 * 1024 * 1024;
const partsAtMost = 10_000;
/**
 * What a PUT's body, or a part's, may hold between the sender and the store: enough that neither side waits on the
 * other's every hiccup (streams hold 16 KiB by default, which left the store idle about a third of the time).
 */
const bufferedBytes = 4 * 1024 * 1024;
/** tus uploads: @tus/s3-store gathers each part in a temporary file (not memory) before sending it. */
const resumablePartBytes = 8 * 1024 * 1024;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.name === 'NoSuchUpload' || error.$metadata.httpStatusCode === 404);

/** Beside a file sent in parts straight to the bucket, until complete: the id of its multipart upload. */
const pendingPartsKey = (key: string) => `${key}.multipart`;
/**
 * Where a file's presigned PUT writes: never the key the file is read under. A presigned URL cannot be revoked and
 * binds no content, so complete copies what arrived here to the file's key (`settleDirectUpload`), and whatever the
 * URL writes afterwards lands here again, where nothing reads it.
 */
const incomingKey = (key: string) => `${key}.incoming`;

/** Runs a request to the store; its failure is the store's (StorageUnavailableError), a missing object aside (null). */
async function fromStore<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (isMissing(error)) return null;
    throw new StorageUnavailableError(error);
  }
}

/** The SHA-256 (and HMAC) that SigV4 presigning takes, from node:crypto. */
class Sha256 {
  private hash: Hash | Hmac;
  private readonly secret: string | Buffer | undefined;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.secret =
      secret === undefined || typeof secret === 'string'
        ? secret
        : ArrayBuffer.isView(secret)
          ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength)
          : Buffer.from(secret);
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret ? createHmac('sha256', this.secret) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(
      typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data),
    );
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

/** One write's shared fate: the first request the store fails aborts the rest (requests in flight, waits on them). */
class WriteAttempt {
  readonly cancel = new AbortController();
  private failure: StorageUnavailableError | null = null;

  /** `request`, whose failure (unless the write was already given up) is the store's and ends the write. */
  track<T>(request: Promise<T>): Promise<T> {
    request.catch((error: unknown) => {
      if (this.cancel.signal.aborted) return;
      this.failure = new StorageUnavailableError(error);
      this.cancel.abort(this.failure);
    });
    return request;
  }

  /** What the write failed with: the body's own faults stand; otherwise the store's failure says more than the stream it broke. */
  outcome(error: unknown): unknown {
    this.cancel.abort();
    return error instanceof TooLargeError || error instanceof IncompleteError || !this.failure ? error : this.failure;
  }
}

/**
 * Passes a stream on one chunk late, the last chunk once the stream ended without error: a store that takes a body
 * of a declared length then never has all of it before the length was checked (an overlong body fails first).
 */
function holdingBackTheLastChunk(): Transform {
  let held: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const previous = held;
      held = chunk;
      done(null, previous ?? undefined);
    },
    flush(done) {
      done(null, held ?? undefined);
    },
  });
}

export class S3MediaStorage implements MediaStorage {
  readonly resumable: S3Store;
  private readonly client: S3Client;
  private readonly presigner: SignatureV4;

  constructor(private readonly settings: S3Settings) {
    const clientConfig = {
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where S3 requires them: many S3-compatible stores reject the SDK's newer default
      // (streamed aws-chunked bodies with trailing checksums).
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.client = new S3Client(clientConfig);
    // No object tags: R2 and B2 do not keep them, and only tus's expiry of abandoned uploads would use them.
    this.resumable = new S3Store({ partSize: resumablePartBytes, useTags: false, s3ClientConfig: { ...clientConfig, bucket: settings.bucket } });
    this.presigner = new SignatureV4({ service: 's3', region: settings.region, credentials: clientConfig.credentials, sha256: Sha256, uriEscapePath: false });
  }

  async write(key: string, source: Readable, bytes: number): Promise<void> {
    // A best effort: S3-compatible stores do not all refuse an existing key (If-None-Match) on multipart uploads.
    if ((await this.size(key)) !== null) throw new AlreadyStoredError(key);
    const object = { Bucket: this.settings.bucket, Key: key };
    const attempt = new WriteAttempt();
    try {
      if (bytes <= this.settings.singlePutBytesAtMost) await this.putWhole(object, source, bytes, attempt);
      else await this.putInParts(object, source, bytes, Math.max(partBytesAtLeast, Math.ceil(bytes / partsAtMost)), attempt);
    } catch (error) {
      throw attempt.outcome(error);
    }
  }

  /** One streamed PUT, its last bytes held back until the body proved its length. */
  private async putWhole(object: { Bucket: string; Key: string }, source: Readable, bytes: number, attempt: WriteAttempt): Promise<void> {
    const body = new PassThrough({ highWaterMark: bufferedBytes });
    attempt.cancel.signal.addEventListener('abort', () => body.destroy(), { once: true });
    const stored = attempt.track(
      this.client.send(new PutObjectCommand({ ...object, Body: body, ContentLength: bytes }), { abortSignal: attempt.cancel.signal }),
    );
    await pipeline(source, exactBytes(bytes), holdingBackTheLastChunk(), body);
    await stored;
  }

  /**
   * A file over the single-PUT limit goes up as a multipart upload whose parts are streamed one after the other as
   * the bytes arrive; the upload is completed only once the body proved its length, and aborted otherwise.
   */
  private async putInParts(object: { Bucket: string; Key: string }, source: Readable, bytes: number, partBytes: number, attempt: WriteAttempt): Promise<void> {
    const { UploadId } = await attempt.track(this.client.send(new CreateMultipartUploadCommand(object)));
    const { signal } = attempt.cancel;
    try {
      const parts: Promise<CompletedPart>[] = [];
      await pipeline(source, exactBytes(bytes), async (chunks: AsyncIterable<Buffer>) => {
        let part: PassThrough | null = null;
        let left = 0;
        for await (const chunk of chunks) {
          for (let offset = 0; offset < chunk.length; ) {
            signal.throwIfAborted();
            if (!part) {
              const PartNumber = parts.length + 1;
              left = Math.min(partBytes, bytes - parts.length * partBytes);
              part = new PassThrough({ highWaterMark: bufferedBytes });
              const sent = this.client.send(new UploadPartCommand({ ...object, UploadId, PartNumber, Body: part, ContentLength: left }), {
                abortSignal: signal,
              });
              parts.push(attempt.track(sent.then(({ ETag }) => ({ PartNumber, ETag }))));
            }
            const piece = chunk.subarray(offset, offset + left);
            offset += piece.length;
            left -= piece.length;
            if (!part.write(piece)) await once(part, 'drain', { signal });
            if (!left) {
              part.end();
              part = null;
            }
          }
        }
      });
      const completed = await Promise.all(parts);
      await attempt.track(this.client.send(new CompleteMultipartUploadCommand({ ...object, UploadId, MultipartUpload: { Parts: completed } })));
    } catch (error) {
      attempt.cancel.abort();
      await this.client.send(new AbortMultipartUploadCommand({ ...object, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  read(key: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end - 1}` } : {}) }))
      .then((object) => pipeline(object.Body as Readable, out))
      .catch((error: Error) => out.destroy(error));
    return out;
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const directory = await mkdtemp(join(tmpdir(), 'sps-media-'));
    try {
      const path = join(directory, 'file');
      await pipeline(this.read(key), createWriteStream(path));
      return await use(path);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** Removes the file and whatever its presigned PUT left beside it. */
  async remove(key: string): Promise<void> {
    const { bucket: Bucket } = this.settings;
    await Promise.all([
      this.client.send(new DeleteObjectCommand({ Bucket, Key: key })),
      fromStore(this.client.send(new DeleteObjectCommand({ Bucket, Key: incomingKey(key) }))),
    ]);
  }

  /**
   * Up to the single-PUT limit, one presigned PUT (of `incomingKey`, copied to `key` on complete); past it, a
   * multipart upload begun here whose parts the client PUTs, each through a presigned URL, in any order and again
   * if one fails (once the upload is completed its id is gone, and the bucket refuses its parts). Every URL binds
   * its body's length (and the whole file's its content type): the bucket refuses any other.
   */
  async directUpload(key: string, file: { bytes: number; contentType: string; expiresInSeconds: number }): Promise<DirectUpload> {
    const { bytes, contentType, expiresInSeconds } = file;
    if (bytes <= this.settings.singlePutBytesAtMost) {
      const headers = { 'content-type': contentType };
      return {
        whole: {
          url: await this.presign('PUT', incomingKey(key), { expiresInSeconds, headers: { ...headers, 'content-length': String(bytes) } }),
          method: 'PUT',
          headers,
        },
      };
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.settings.bucket, Key: key, ContentType: contentType }));
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: pendingPartsKey(key), Body: UploadId! }));
    // A part must itself fit the single-request limit; S3 takes at most 10,000.
    const partBytes = Math.max(Math.ceil(bytes / partsAtMost), Math.min(partBytesAtLeast, this.settings.singlePutBytesAtMost));
    const parts: (PresignedRequest & { partNumber: number; bytes: number })[] = [];
    for (let partNumber = 1; (partNumber - 1) * partBytes < bytes; partNumber++) {
      const length = Math.min(partBytes, bytes - (partNumber - 1) * partBytes);
      const query = { partNumber: String(partNumber), uploadId: UploadId! };
      const url = await this.presign('PUT', key, { expiresInSeconds, query, headers: { 'content-length': String(length) } });
      parts.push({ partNumber, bytes: length, url, method: 'PUT', headers: {} });
    }
    return { partBytes, parts };
  }

  /**
   * Makes what the client sent straight to the bucket the file: a presigned PUT's object copied to `key` (within
   * the bucket; a single PUT's file is within CopyObject's 5 GB), a multipart upload completed from the parts the
   * bucket lists (no ETags asked of the client).
   */
  async settleDirectUpload(key: string, bytes: number): Promise<void> {
    await this.settleIncoming(key);
    await this.settleParts(key, bytes);
  }

  /**
   * Copies a presigned PUT's file to `key` unless `key` holds one already (the file came another way, or a
   * complete before this one copied it; `IfNoneMatch` makes the store refuse a copy over it where it can), then
   * drops the incoming object.
   */
  private async settleIncoming(key: string): Promise<void> {
    const { bucket: Bucket } = this.settings;
    if ((await this.size(incomingKey(key))) === null) return;
    if ((await this.size(key)) === null) {
      const copied = this.client.send(
        new CopyObjectCommand({ Bucket, Key: key, CopySource: `${Bucket}/${incomingKey(key).split('/').map(encodeURIComponent).join('/')}`, IfNoneMatch: '*' }),
      );
      await copied.catch((error: unknown) => {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) return;
        throw new StorageUnavailableError(error);
      });
    }
    await fromStore(this.client.send(new DeleteObjectCommand({ Bucket, Key: incomingKey(key) })));
  }

  /** Completes a multipart upload whose parts the client sent, from the parts the bucket lists. */
  private async settleParts(key: string, bytes: number): Promise<void> {
    const { bucket: Bucket } = this.settings;
    const marker = await fromStore(this.client.send(new GetObjectCommand({ Bucket, Key: pendingPartsKey(key) })));
    if (!marker) return;
    const upload = { Bucket, Key: key, UploadId: await marker.Body!.transformToString() };
    if ((await this.size(key)) !== null) {
      // The file came whole another way (tus, this service's own upload URL): the parts are not needed.
      await this.client.send(new AbortMultipartUploadCommand(upload)).catch(() => undefined);
    } else {
      const parts = (await this.partsOf(upload)) ?? [];
      const received = parts.reduce((sum, part) => sum + (part.Size ?? 0), 0);
      if (received !== bytes || parts.some((part, index) => part.PartNumber !== index + 1)) throw new IncompleteError(received, bytes);
      const completed = fromStore(
        this.client.send(
          new CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })) } }),
        ),
      );
      // Of two completes at once, the one that finds the upload gone finds the file made by the other.
      if (!(await completed) && (await this.size(key)) === null) throw new IncompleteError(0, bytes);
    }
    await fromStore(this.client.send(new DeleteObjectCommand({ Bucket, Key: pendingPartsKey(key) })));
  }

  /** The parts a multipart upload holds, by number (null once it is gone: completed or aborted). */
  private async partsOf(upload: { Bucket: string; Key: string; UploadId: string }) {
    const parts = [];
    for (let marker: string | undefined; ; ) {
      const page = await fromStore(this.client.send(new ListPartsCommand({ ...upload, PartNumberMarker: marker })));
      if (!page) return null;
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated) return parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
      marker = page.NextPartNumberMarker;
    }
  }

  async forgetResumable(key: string): Promise<void> {
    // @tus/s3-store keeps its record of an upload in `<key>.info`.
    await this.remove(`${key}.info`);
  }

  get directOrigin(): string {
    return this.objectUrl('').origin;
  }

  async directUrl(key: string, file: { expiresInSeconds: number; contentType: string; contentDisposition: string }): Promise<string> {
    const query = { 'response-content-type': file.contentType, 'response-content-disposition': file.contentDisposition };
    return this.presign('GET', key, { expiresInSeconds: file.expiresInSeconds, query, headers: {} });
  }

  /**
   * A presigned URL of `key` valid `expiresInSeconds`: the signature binds the method, the query and `headers`,
   * never the body (UNSIGNED-PAYLOAD, as AWS's own presigner does).
   */
  private async presign(
    method: 'GET' | 'PUT',
    key: string,
    request: { expiresInSeconds: number; query?: Record<string, string>; headers: Record<string, string> },
  ): Promise<string> {
    const url = this.objectUrl(key);
    const signed = await this.presigner.presign(
      {
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query: request.query ?? {},
        headers: { ...request.headers, host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn: request.expiresInSeconds },
    );
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(signed.query ?? {})) search.set(name, [value ?? ''].flat().join(','));
    url.search = search.toString();
    return url.toString();
  }

  private objectUrl(key: string): URL {
    const { endpoint, region, bucket, forcePathStyle } = this.settings;
    const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
    const path = key.split('/').map(encodeURIComponent).join('/');
    if (forcePathStyle) return new URL(`${base.origin}/${bucket}/${path}`);
    return new URL(`${base.protocol}//${bucket}.${base.host}/${path}`);
  }
}
