// How a file streaming through the server gets its chunks' memory back (src/media/streamedChunks.ts).
import { describe, expect, it } from 'vitest';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exactBytes } from '../../src/media/storage.ts';
import { scavengeEveryBytes } from '../../src/media/streamedChunks.ts';

const chunkBytes = 64 * 1024;
const fileBytes = 256 * 1024 * 1024;

/** A file as a socket delivers it: every chunk a Buffer of its own. */
function socketLike(): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < fileBytes; sent += chunkBytes) yield Buffer.alloc(chunkBytes, sent);
    })(),
  );
}

/** Streams the file through exactBytes (every stored file passes it), recording collections and the peak of Buffer memory. */
async function streamThroughStore() {
  const collections: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  await pipeline(
    socketLike(),
    exactBytes(fileBytes),
    new Writable({
      write(_chunk: Buffer, _encoding, done) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
        done();
      },
    }),
  );
  // Entries reach the observer in a later task.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const kind = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind;
  return {
    scavenges: collections.filter((entry) => kind(entry) === constants.NODE_PERFORMANCE_GC_MINOR).length,
    fullCollections: collections.filter((entry) => kind(entry) === constants.NODE_PERFORMANCE_GC_MAJOR).length,
    growthBytes: peak - before,
  };
}

describe('streamed chunks', () => {
  it('are freed by young-generation collections as the bytes stream, never by full collections of the heap', async () => {
    // The first file also meets the collection that loading the modules started.
    await streamThroughStore();
    const { scavenges, fullCollections, growthBytes } = await streamThroughStore();
    expect(scavenges).toBeGreaterThanOrEqual(fileBytes / scavengeEveryBytes - 1);
    expect(fullCollections).toBe(0);
    // V8 alone lets 64 MB of dead chunks gather before a full collection frees them.
    expect(growthBytes).toBeLessThan(2 * scavengeEveryBytes);
  });
});
