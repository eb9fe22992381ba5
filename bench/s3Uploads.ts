// Section `s3-uploads`: with MEDIA_STORAGE=s3 a client sends a file straight to the bucket through the presigned PUT
// the service answers; the service only starts and completes the upload. Measured against an S3-compatible store
// (s3rver in a process of its own on this machine): the same 1 GiB PUT into local disk through the service
// (MEDIA_STORAGE=local), and to the bucket's presigned URL (MEDIA_STORAGE=s3) with the service's peak memory growth
// meanwhile (sampled from /proc: the bytes do not pass through it) and how long start and complete take. Beside
// them, what s3rver takes straight from the AWS SDK as one streamed PUT: the store's own ceiling on this machine.
import { request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { benchRuntime, benchWorkspace, rssBytes, startChildServer, startScriptService, type Bench } from './support.ts';
import { MiB, mbPerSecond, payload, putThrough, size } from './uploads.ts';

interface BenchS3 {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
}

/** Milliseconds for 1 GiB sent straight to the store in one streamed PUT by the AWS SDK. */
async function sdkPut(s3: BenchS3): Promise<number> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const began = performance.now();
  await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'straight/put', Body: payload(), ContentLength: size }));
  return performance.now() - began;
}

/** One PUT of 1 GiB to a presigned URL, with the length its signature binds. */
async function presignedPut(url: string, headers: Record<string, string>): Promise<void> {
  const answer = new Promise<number>((resolve, reject) => {
    const sent = request(url, { method: 'PUT', headers: { ...headers, 'content-length': String(size) } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.once('error', reject);
    pipeline(payload(), sent).catch(reject);
  });
  const status = await answer;
  if (status !== 200) throw new Error(`the bucket answered ${status}`);
}

interface DirectFigures {
  mbPerSecond: number;
  startMs: number;
  completeMs: number;
  growthMb: number;
}

/** The 1 GiB upload with MEDIA_STORAGE=s3: start through the service, PUT to the bucket, complete through the service. */
async function directToBucket(bench: Bench, s3: BenchS3): Promise<DirectFigures> {
  const serviceEnv = { ...bench.serviceEnv, RATE_LIMIT_PER_MINUTE: '100000000', ...s3.env };
  const runtime = await benchRuntime(serviceEnv);
  const server = await startChildServer('bin/server.ts', serviceEnv);
  try {
    const { apiKey } = await benchWorkspace(runtime.services, 's3');
    const call = (path: string, body?: unknown) =>
      fetch(`${server.url}/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    let began = performance.now();
    const started = await call('/media/uploads', { filename: 'big.bin', contentType: 'application/octet-stream', size }).then((response) => response.json());
    const startMs = performance.now() - began;
    const baseline = await rssBytes(server.pid);
    let peak = baseline;
    const sampler = setInterval(
      () =>
        void rssBytes(server.pid).then(
          (rss) => (peak = Math.max(peak, rss)),
          () => {},
        ),
      20,
    );
    began = performance.now();
    try {
      await presignedPut(started.data.uploadUrl, started.data.headers);
    } finally {
      clearInterval(sampler);
    }
    const putMs = performance.now() - began;
    began = performance.now();
    const completed = await call(`/media/uploads/${started.data.id}/complete`);
    const completeMs = performance.now() - began;
    if (completed.status !== 202) throw new Error(`complete answered ${completed.status}: ${await completed.text()}`);
    return { mbPerSecond: mbPerSecond(size, putMs), startMs, completeMs, growthMb: (peak - baseline) / MiB };
  } finally {
    await server.stop();
    await runtime.stop();
  }
}

export async function s3Uploads(bench: Bench): Promise<void> {
  const s3 = await startScriptService<BenchS3>('bench/s3Server.ts');
  try {
    const local = await putThrough(bench, { MEDIA_STORAGE: 'local' }, 'local-disk');
    const direct = await directToBucket(bench, s3);
    const ceiling = mbPerSecond(size, await sdkPut(s3));
    console.log(
      `1 GiB PUT into local disk through the service: ${local.mbPerSecond.toFixed(0)} MB/s, server RSS growth ${local.growthMb.toFixed(0)} MB (target < 100 MB)`,
    );
    console.log(
      `1 GiB PUT to the bucket's presigned URL (S3, s3rver on this machine): ${direct.mbPerSecond.toFixed(0)} MB/s, server RSS growth meanwhile ${direct.growthMb.toFixed(0)} MB`,
    );
    console.log(`the service's part: start ${direct.startMs.toFixed(0)} ms, complete ${direct.completeMs.toFixed(0)} ms`);
    console.log(
      `s3rver alone, the same 1 GiB from the AWS SDK in one streamed PUT: ${ceiling.toFixed(0)} MB/s; presigned PUT / that = ${(direct.mbPerSecond / ceiling).toFixed(2)}`,
    );
  } finally {
    await s3.stop();
  }
}
