// A video's bytes to TikTok as the Media Transfer Guide documents it
// (https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide): `total_chunk_count` is the video's
// size divided by `chunk_size`, rounded down; chunks are 5 to 64 MB and sent in order, the last one taking the
// remaining bytes (up to 128 MB); a video under 5 MB goes as one chunk of its own size; 1 to 1000 chunks. Each is a
// `PUT upload_url` with `Content-Range: bytes FIRST-LAST/TOTAL`, answered 206 and 201 after the last.
// Chunks of 5 MiB (5 MB in either reading) keep a 4 GB video under 1000 chunks and memory at one chunk (the last
// under 10 MiB); each is a checkpoint step, so a resumed upload starts at the first chunk TikTok did not confirm.
import type { PublishMedia } from '../adapter.ts';
import type { Steps } from '../kit/steps.ts';
import { uploadSegments } from '../kit/upload.ts';
import type { TikTokApi } from './api.ts';

const chunkBytes = 5 * 1024 * 1024;

export interface ChunkPlan {
  chunk_size: number;
  total_chunk_count: number;
}

export function chunkPlan(videoSize: number): ChunkPlan {
  const size = Math.min(videoSize, chunkBytes);
  return { chunk_size: size, total_chunk_count: Math.max(1, Math.floor(videoSize / size)) };
}

/** The chunks' byte ranges: all of `chunk_size` but the last, which runs to the end. */
function chunkRanges(videoSize: number, plan: ChunkPlan): { index: number; start: number; end: number }[] {
  return Array.from({ length: plan.total_chunk_count }, (_, index) => ({
    index,
    start: index * plan.chunk_size,
    end: index === plan.total_chunk_count - 1 ? videoSize : (index + 1) * plan.chunk_size,
  }));
}

export async function uploadChunks(steps: Steps, api: TikTokApi, uploadUrl: string, video: PublishMedia, signal?: AbortSignal): Promise<void> {
  const ranges = chunkRanges(video.size, chunkPlan(video.size));
  await uploadSegments(
    steps,
    'chunk',
    video,
    0,
    ({ start, end, bytes }) =>
      api.upload(uploadUrl, { bytes, contentType: video.mimeType }, { 'content-range': `bytes ${start}-${end - 1}/${video.size}` }, signal),
    ranges,
  );
}
