// A local S3-compatible server for tests (s3rver, files in a temporary folder), with one bucket. s3rver lacks two
// multipart calls that @tus/s3-store and src/media/s3Storage.ts make (ListParts, AbortMultipartUpload): they are
// answered here from s3rver's own record of the parts, as S3 answers them, and a part for an upload that is gone
// (completed, aborted) is refused as S3 refuses it (404 NoSuchUpload). s3rver checks no SigV4 signature: the
// signature of a presigned URL (query authentication, what clients get) is checked here, by the steps of AWS's
// documentation, so a request differing from what was signed (method, query, a signed header such as the length
// or type) is refused as S3 refuses it (403 SignatureDoesNotMatch). `failWrites` makes the store refuse every
// object and part written (500 InternalError) until turned off again: a store failing mid-upload.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

interface S3rverInstance {
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  configureBuckets(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface TestS3 {
  /** The settings the service takes (MEDIA_STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  /** Every request the store received, in order: method, key and, for a part of a multipart upload, its number. */
  requests: { method: string; key: string; partNumber: number | null }[];
  failWrites(failing: boolean): void;
  stop(): Promise<void>;
}

const xmlError = (res: ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

/** The test store's one key pair. */
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';

/**
 * The SigV4 signature of a presigned request (`url` with its X-Amz-* query, and the headers it came with), by the
 * steps of AWS's documentation ("Authenticating Requests: Using Query Parameters"): S3 takes the path as sent.
 */
export function presignedSignature(method: string, url: URL, headers: IncomingHttpHeaders | Record<string, string>, secret = secretAccessKey): string {
  const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...url.searchParams]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders') ?? '';
  const canonicalHeaders = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payload = url.searchParams.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  const canonicalRequest = [method, url.pathname, query, canonicalHeaders, signedHeaders, payload].join('\n');
  const [date, region, service] = (url.searchParams.get('X-Amz-Credential') ?? '').split('/').slice(1);
  const scope = [date, region, service, 'aws4_request'].join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', url.searchParams.get('X-Amz-Date'), scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const key = [date ?? '', region ?? '', service ?? '', 'aws4_request'].reduce<Buffer>(
    (hmacKey, part) => createHmac('sha256', hmacKey).update(part).digest(),
    Buffer.from(`AWS4${secret}`),
  );
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

/** Why S3 would refuse a presigned request, or null when it is signed right and in time. */
function presignedRefusal(req: IncomingMessage, url: URL): { status: number; code: string; message: string } | null {
  const signedAt = Date.parse((url.searchParams.get('X-Amz-Date') ?? '').replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Date.now() <= signedAt + Number(url.searchParams.get('X-Amz-Expires')) * 1000))
    return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  if (
    !url.searchParams.get('X-Amz-Credential')?.startsWith(`${accessKeyId}/`) ||
    url.searchParams.get('X-Amz-Signature') !== presignedSignature(req.method ?? '', url, req.headers)
  ) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return null;
}

export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'sps-s3-'));
  const bucket = 'media';
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }], allowMismatchedSignatures: false });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const uploadsDirectory = s3rver.store.getResourcePath(bucket, undefined, 'uploads');
  let failing = false;
  const requests: TestS3['requests'] = [];

  async function listParts(res: ServerResponse, key: string, uploadId: string) {
    const dir = join(uploadsDirectory, uploadId);
    const names = await readdir(dir).catch(() => null);
    if (!names) return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
    const numbers = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (number) => {
        const [size, md5] = await Promise.all([stat(join(dir, String(number))).then((info) => info.size), readFile(join(dir, `${number}.md5`), 'utf8')]);
        return `<Part><PartNumber>${number}</PartNumber><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`;
      }),
    );
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const uploadId = url.searchParams.get('uploadId');
    const key = decodeURIComponent(url.pathname.slice(`/${bucket}/`.length));
    const partNumber = url.searchParams.get('partNumber');
    requests.push({ method: req.method ?? '', key, partNumber: partNumber === null ? null : Number(partNumber) });
    const refusal = url.searchParams.has('X-Amz-Algorithm') ? presignedRefusal(req, url) : null;
    if (refusal) {
      req.resume();
      return void req.on('end', () => xmlError(res, refusal.status, refusal.code, refusal.message));
    }
    if (uploadId && req.method === 'GET') return void listParts(res, key, uploadId);
    if (uploadId && req.method === 'DELETE') {
      return void rm(join(uploadsDirectory, uploadId), { recursive: true, force: true }).then(() => res.writeHead(204).end());
    }
    if (failing && req.method === 'PUT') {
      req.resume();
      return void req.on('end', () => xmlError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.'));
    }
    if (uploadId && partNumber !== null && req.method === 'PUT') {
      // s3rver takes a part for any upload id, even one already completed; S3 refuses it (UploadPart: "NoSuchUpload:
      // The specified multipart upload does not exist. The upload ID might be invalid, or the multipart upload might
      // have been aborted or completed", https://docs.aws.amazon.com/AmazonS3/latest/API/API_UploadPart.html).
      return void stat(join(uploadsDirectory, uploadId)).then(
        () => handle(req, res),
        () => {
          req.resume();
          req.on('end', () => xmlError(res, 404, 'NoSuchUpload', 'The specified multipart upload does not exist.'));
        },
      );
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    bucket,
    requests,
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    failWrites(value) {
      failing = value;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
