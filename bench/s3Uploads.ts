// Section `s3-uploads`: the same 1 GiB PUT to a signed upload URL, once into local disk (MEDIA_STORAGE=local) and
// once into an S3-compatible store (s3rver on this machine, MEDIA_STORAGE=s3), in the same run. Prints MB/s of
// each, their ratio, and the server's peak memory growth while the file streams (sampled from /proc).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { benchRuntime, benchWorkspace, rssBytes, startChildServer, type Bench } from './support.ts';
import { startTestS3 } from '../test/support/s3.ts';

const MiB = 1024 * 1024;
const size = 1024 * MiB;

function payload(): Readable {
  const block = Buffer.alloc(MiB, 'social publishing service ');
  async function* blocks() {
    for (let sent = 0; sent < size; sent += MiB) yield block;
  }
  return Readable.from(blocks());
}

/** One 1 GiB PUT through a server process started with `env`: MB/s and peak RSS growth. */
async function putThrough(bench: Bench, env: Record<string, string>, label: string): Promise<{ mbPerSecond: number; growthMb: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sps-bench-s3-'));
  const serviceEnv = { ...bench.serviceEnv, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '100000000', ...env };
  const runtime = await benchRuntime(serviceEnv);
  const server = await startChildServer('bin/server.ts', serviceEnv);
  try {
    const { apiKey } = await benchWorkspace(runtime.services, label);
    const started = await fetch(`${server.url}/v1/media/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'big.bin', contentType: 'application/octet-stream', size }),
    }).then((response) => response.json());
    const uploadUrl = (started.data.uploadUrl as string).replace(runtime.services.config.publicBaseUrl, server.url);
    const baseline = await rssBytes(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => void rssBytes(server.pid).then((rss) => (peak = Math.max(peak, rss)), () => {}), 20);
    const began = performance.now();
    const response = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Readable.toWeb(payload()) as ReadableStream, duplex: 'half' } as RequestInit);
    const ms = performance.now() - began;
    clearInterval(sampler);
    if (response.status !== 200) throw new Error(`${label} upload answered ${response.status}: ${await response.text()}`);
    return { mbPerSecond: size / MiB / (ms / 1000), growthMb: (peak - baseline) / MiB };
  } finally {
    await server.stop();
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function s3Uploads(bench: Bench): Promise<void> {
  const s3 = await startTestS3();
  try {
    const local = await putThrough(bench, { MEDIA_STORAGE: 'local' }, 'local-disk');
    const bucket = await putThrough(bench, s3.env, 's3');
    const line = (name: string, figures: { mbPerSecond: number; growthMb: number }) =>
      console.log(`1 GiB PUT into ${name}: ${figures.mbPerSecond.toFixed(0)} MB/s, server RSS growth ${figures.growthMb.toFixed(0)} MB (target < 100 MB)`);
    line('local disk', local);
    line('S3 (s3rver on this machine)', bucket);
    console.log(`ratio S3/local disk = ${(bucket.mbPerSecond / local.mbPerSecond).toFixed(2)} (target >= 0.70)`);
  } finally {
    await s3.stop();
  }
}
