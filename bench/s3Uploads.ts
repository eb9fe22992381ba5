// Section `s3-uploads`: the same 1 GiB PUT to a signed upload URL, once into local disk (MEDIA_STORAGE=local) and
// once into an S3-compatible store (s3rver on this machine, MEDIA_STORAGE=s3), in the same run. Prints MB/s of
// each, their ratio, and the server's peak memory growth while the file streams (sampled from /proc).
import type { Bench } from './support.ts';
import { putThrough, type UploadFigures } from './uploads.ts';
import { startTestS3 } from '../test/support/s3.ts';

export async function s3Uploads(bench: Bench): Promise<void> {
  const s3 = await startTestS3();
  try {
    const local = await putThrough(bench, { MEDIA_STORAGE: 'local' }, 'local-disk');
    const bucket = await putThrough(bench, s3.env, 's3');
    const line = (name: string, figures: UploadFigures) =>
      console.log(`1 GiB PUT into ${name}: ${figures.mbPerSecond.toFixed(0)} MB/s, server RSS growth ${figures.growthMb.toFixed(0)} MB (target < 100 MB)`);
    line('local disk', local);
    line('S3 (s3rver on this machine)', bucket);
    console.log(`ratio S3/local disk = ${(bucket.mbPerSecond / local.mbPerSecond).toFixed(2)} (target >= 0.70)`);
  } finally {
    await s3.stop();
  }
}
