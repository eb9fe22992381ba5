// Section `s3-uploads`: the same 1 GiB PUT to a signed upload URL, once into local disk (MEDIA_STORAGE=local) and
// once into an S3-compatible store (s3rver in a process of its own on this machine, MEDIA_STORAGE=s3), in the same
// run. Prints MB/s of each, their ratio, and the server's peak memory growth while the file streams (sampled from
// /proc). Beside them, what s3rver takes straight from this process, without the service: the same bytes as one
// streamed PUT (what the service sends for a file of this size) and as a multipart upload of 64 MiB parts (what it
// sends past S3_SINGLE_PUT_MAX_BYTES). That is the store's own ceiling on this machine.
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { startScriptService, type Bench } from './support.ts';
import { mbPerSecond, payload, putThrough, size, type UploadFigures } from './uploads.ts';
import { partBytesAtLeast } from '../src/media/s3Storage.ts';

interface BenchS3 {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
}

function clientOf(s3: BenchS3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Milliseconds for 1 GiB sent straight to the store as streamed parts, one after the other, then completed. */
async function multipartStraight(client: S3Client, Bucket: string): Promise<number> {
  const began = performance.now();
  const Key = 'straight/multipart';
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  const Parts = [];
  for (let PartNumber = 1; (PartNumber - 1) * partBytesAtLeast < size; PartNumber++) {
    const length = Math.min(partBytesAtLeast, size - (PartNumber - 1) * partBytesAtLeast);
    const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: payload(length), ContentLength: length }));
    Parts.push({ PartNumber, ETag });
  }
  await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
  return performance.now() - began;
}

/** Milliseconds for 1 GiB sent straight to the store in one streamed PUT. */
async function putStraight(client: S3Client, Bucket: string): Promise<number> {
  const began = performance.now();
  await client.send(new PutObjectCommand({ Bucket, Key: 'straight/put', Body: payload(), ContentLength: size }));
  return performance.now() - began;
}

export async function s3Uploads(bench: Bench): Promise<void> {
  const s3 = await startScriptService<BenchS3>('bench/s3Server.ts');
  try {
    const local = await putThrough(bench, { MEDIA_STORAGE: 'local' }, 'local-disk');
    const bucket = await putThrough(bench, s3.env, 's3');
    const client = clientOf(s3);
    const put = mbPerSecond(size, await putStraight(client, s3.bucket));
    const multipart = mbPerSecond(size, await multipartStraight(client, s3.bucket));
    const line = (name: string, figures: UploadFigures) =>
      console.log(`1 GiB PUT into ${name}: ${figures.mbPerSecond.toFixed(0)} MB/s, server RSS growth ${figures.growthMb.toFixed(0)} MB (target < 100 MB)`);
    line('local disk', local);
    line('S3 (s3rver on this machine)', bucket);
    console.log(`ratio S3/local disk = ${(bucket.mbPerSecond / local.mbPerSecond).toFixed(2)} (target >= 0.70)`);
    console.log(`s3rver alone, the same 1 GiB straight from the bench: one streamed PUT ${put.toFixed(0)} MB/s, multipart (${partBytesAtLeast / 2 ** 20} MiB parts) ${multipart.toFixed(0)} MB/s`);
    console.log(`the service's S3 upload / s3rver's one-PUT ceiling = ${(bucket.mbPerSecond / put).toFixed(2)}`);
  } finally {
    await s3.stop();
  }
}
