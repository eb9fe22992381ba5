// Section `uploads`: a 1 GiB file PUT to its signed upload URL, streamed by the real server process to its
// storage. Prints the throughput next to a plain streaming file copy on this machine, and the server's peak
// memory growth while the file streams (sampled from /proc). `putThrough` also serves the `s3-uploads` section.
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { benchRuntime, benchWorkspace, rssBytes, startChildServer, type Bench } from './support.ts';

export const MiB = 1024 * 1024;
export const size = 1024 * MiB;

/** `bytes` (1 GiB unless told; whole MiB) from one reused 1 MiB block: cheap to make, so the sender is not what is measured. */
export function payload(bytes = size): Readable {
  const block = Buffer.alloc(MiB, 'social publishing service ');
  async function* blocks() {
    for (let sent = 0; sent < bytes; sent += MiB) yield block;
  }
  return Readable.from(blocks());
}

export const mbPerSecond = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

export interface UploadFigures {
  mbPerSecond: number;
  ms: number;
  baselineMb: number;
  peakMb: number;
  growthMb: number;
}

type Runtime = Awaited<ReturnType<typeof benchRuntime>>;

/**
 * One 1 GiB PUT through a server process started with `env` added to the bench's: its speed and the server's
 * peak RSS growth. `afterwards` runs while the stored file still exists.
 */
export async function putThrough(
  bench: Bench,
  env: Record<string, string>,
  label: string,
  afterwards?: (stored: { runtime: Runtime; dataDir: string; mediaId: string }) => Promise<void>,
): Promise<UploadFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sps-bench-media-'));
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
    const sampler = setInterval(
      () =>
        void rssBytes(server.pid).then(
          (rss) => (peak = Math.max(peak, rss)),
          () => {},
        ),
      20,
    );
    const began = performance.now();
    const response = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(payload()) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const ms = performance.now() - began;
    clearInterval(sampler);
    if (response.status !== 200) throw new Error(`${label} upload answered ${response.status}: ${await response.text()}`);
    await afterwards?.({ runtime, dataDir, mediaId: started.data.id });
    return { mbPerSecond: mbPerSecond(size, ms), ms, baselineMb: baseline / MiB, peakMb: peak / MiB, growthMb: (peak - baseline) / MiB };
  } finally {
    await server.stop();
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function uploads(bench: Bench): Promise<void> {
  let copyMs = 0;
  const upload = await putThrough(bench, {}, 'upload', async ({ runtime, dataDir, mediaId }) => {
    const copyBegan = performance.now();
    await pipeline(runtime.services.storage.read(`uploads/${mediaId}`), createWriteStream(join(dataDir, 'copy.bin')));
    copyMs = performance.now() - copyBegan;
  });
  const copy = mbPerSecond(size, copyMs);
  console.log(`1 GiB PUT to the signed upload URL: ${upload.mbPerSecond.toFixed(0)} MB/s (${(upload.ms / 1000).toFixed(1)} s)`);
  console.log(`plain streaming file copy of the same 1 GiB: ${copy.toFixed(0)} MB/s (${(copyMs / 1000).toFixed(1)} s)`);
  console.log(`ratio upload/copy = ${(upload.mbPerSecond / copy).toFixed(2)} (target >= 0.70)`);
  console.log(
    `server RSS: ${upload.baselineMb.toFixed(0)} MB before, ${upload.peakMb.toFixed(0)} MB peak, growth ${upload.growthMb.toFixed(0)} MB (target < 100 MB)`,
  );
}
