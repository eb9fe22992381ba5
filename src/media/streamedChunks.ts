// A file streams through the server as chunks of up to 64 KiB, each a Buffer of its own whose memory V8 frees only
// when a collection finds it dead. While bytes stream the server allocates little else, so the young generation
// never fills and no cheap young-generation collection (scavenge) comes: the dead chunks pile up until V8's limit
// on external memory (64 MB more than after the last full collection) starts a full collection, which marks the
// whole heap (~110 MB here, 60-100 ms) several times a second. Asking for a scavenge every few MiB streamed frees
// the chunks at a fraction of that cost: `npm run bench -- s3-uploads` measured a 1 GiB PUT into local disk at
// 263-311 MB/s before, 423-650 MB/s after, into S3 at 164-168 before and 185-228 MB/s after. Making the young
// generation small for the whole process (--max-semi-space-size=1) did as much for uploads but cost the API a third
// of its throughput (bench `graph`), hence a scavenge asked for where bytes stream.
import { Transform } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = (options: { type: 'minor'; execution: 'sync' }) => void;

/** V8's `gc()`, taken from a context created while --expose-gc was on, which is then turned off again. */
function scavenger(): CollectGarbage {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as CollectGarbage;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

const collect = scavenger();

/**
 * Bytes streamed between scavenges, counted over every stream of the process. Well above what a stream holds in
 * flight (4 MiB towards S3, less elsewhere): a chunk that lives through two scavenges is moved to the old
 * generation, where only a full collection frees it (at 4 MiB, uploads into S3 were slower than without any).
 */
export const scavengeEveryBytes = 16 * 1024 * 1024;
let streamedSinceScavenge = 0;

/** Counts `bytes` that just streamed through the server, asking for a scavenge every `scavengeEveryBytes`. */
export function streamedChunk(bytes: number): void {
  streamedSinceScavenge += bytes;
  if (streamedSinceScavenge < scavengeEveryBytes) return;
  streamedSinceScavenge = 0;
  collect({ type: 'minor', execution: 'sync' });
}

/** Passes a stream on unchanged, counting its chunks as `streamedChunk` does. */
export function countingChunks(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      streamedChunk(chunk.length);
      done(null, chunk);
    },
  });
}
