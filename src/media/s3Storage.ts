// Media in an S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Backblaze B2, Ceph): whole-file PUTs
// stream into multipart uploads, tus writes through @tus/s3-store, downloads are presigned GETs. An object appears
// only when its upload completes, so a failed upload leaves nothing to read.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { S3Store } from '@tus/s3-store';
import { AlreadyStoredError, exactBytes, IncompleteError, StorageUnavailableError, TooLargeError, type MediaStorage } from './storage.ts';

export interface S3Settings {
  /** Absent: AWS S3 itself, at the region's endpoint. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, Ceph, most local servers). */
  forcePathStyle: boolean;
}

/**
 * Parts of 64 MiB or more (S3 takes 5 MiB at least and 10,000 parts at most), each streamed from the sender as it
 * arrives, one after the other: no part is gathered in memory, and a streamed body is sent unhashed (the SDK signs
 * it UNSIGNED-PAYLOAD), where a buffered part would be hashed (SHA-256) before it is sent.
 */
export const partBytesAtLeast = 64 * 1024 * 1024;
const partsAtMost = 10_000;
/** tus uploads: @tus/s3-store gathers each part in a temporary file (not memory) before sending it. */
const resumablePartBytes = 8 * 1024 * 1024;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** The SHA-256 (and HMAC) that SigV4 presigning takes, from node:crypto. */
class Sha256 {
  private hash: Hash | Hmac;
  private readonly secret: string | Buffer | undefined;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.secret = secret === undefined || typeof secret === 'string' ? secret : ArrayBuffer.isView(secret) ? Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength) : Buffer.from(secret);
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret ? createHmac('sha256', this.secret) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
  reset(): void {
    this.hash = this.fresh();
  }
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
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(object)).catch((error: unknown) => {
      throw new StorageUnavailableError(error);
    });
    const partBytes = Math.max(partBytesAtLeast, Math.ceil(bytes / partsAtMost));
    // Aborted when anything fails: parts still being sent stop, and so does the wait for the current one to drain.
    const cancel = new AbortController();
    let storeFailure: StorageUnavailableError | null = null;
    const parts: Promise<CompletedPart>[] = [];
    const sendPart = (PartNumber: number, body: PassThrough, length: number) => {
      const sent = this.client
        .send(new UploadPartCommand({ ...object, UploadId, PartNumber, Body: body, ContentLength: length }), { abortSignal: cancel.signal })
        .then(({ ETag }) => ({ PartNumber, ETag }));
      sent.catch((error: unknown) => {
        if (cancel.signal.aborted) return;
        storeFailure = new StorageUnavailableError(error);
        cancel.abort(storeFailure);
      });
      parts.push(sent);
    };
    try {
      // Too long or too short, the stream fails before it ends and the upload is aborted: nothing becomes visible.
      await pipeline(source, exactBytes(bytes), async (chunks: AsyncIterable<Buffer>) => {
        let part: PassThrough | null = null;
        let left = 0;
        for await (const chunk of chunks) {
          for (let offset = 0; offset < chunk.length; ) {
            if (storeFailure) throw storeFailure;
            if (!part) {
              left = Math.min(partBytes, bytes - parts.length * partBytes);
              part = new PassThrough();
              sendPart(parts.length + 1, part, left);
            }
            const piece = chunk.subarray(offset, offset + left);
            offset += piece.length;
            left -= piece.length;
            if (!part.write(piece)) await once(part, 'drain', { signal: cancel.signal });
            if (!left) {
              part.end();
              part = null;
            }
          }
        }
      });
      const completed = await Promise.all(parts);
      await this.client.send(new CompleteMultipartUploadCommand({ ...object, UploadId, MultipartUpload: { Parts: completed } })).catch((error: unknown) => {
        throw new StorageUnavailableError(error);
      });
    } catch (error) {
      cancel.abort();
      await this.client.send(new AbortMultipartUploadCommand({ ...object, UploadId })).catch(() => undefined);
      // The body's own faults stand; otherwise a part failing at the store says more than the stream it broke.
      throw error instanceof TooLargeError || error instanceof IncompleteError || !storeFailure ? error : storeFailure;
    }
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }))
      .then((object) => pipeline(object.Body as Readable, out))
      .catch((error: Error) => out.destroy(error));
    return out;
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

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async forgetResumable(key: string): Promise<void> {
    // @tus/s3-store keeps its record of an upload in `<key>.info`.
    await this.remove(`${key}.info`);
  }

  async directUrl(key: string, file: { expiresInSeconds: number; contentType: string; filename: string }): Promise<string> {
    const url = this.objectUrl(key);
    const query = {
      'response-content-type': file.contentType,
      'response-content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    };
    const signed = await this.presigner.presign(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query,
        // A presigned GET signs no body (as AWS's own presigner does).
        headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn: file.expiresInSeconds },
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
