// Media as an adapter receives it (`PublishMedia`), from bytes in memory, for adapter-level tests that call `publish`
// without the worker. `open` honours byte ranges as the storage does, and `reads` lists each range read.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PublishMedia } from '../../src/providers/adapter.ts';

export type TestMedia = PublishMedia & { reads: { start: number; end: number }[] };

export function publishMedia(bytes: Buffer, fields: Partial<PublishMedia> & Pick<PublishMedia, 'kind' | 'mimeType'>): TestMedia {
  const reads: { start: number; end: number }[] = [];
  return {
    id: randomUUID(),
    size: bytes.length,
    width: null,
    height: null,
    durationMs: null,
    altText: null,
    url: '',
    jpegUrl: '',
    reads,
    open: async (range) => {
      const { start, end } = range ?? { start: 0, end: bytes.length };
      reads.push({ start, end });
      return Readable.from([bytes.subarray(start, end)]);
    },
    ...fields,
  };
}
