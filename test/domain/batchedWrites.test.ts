// How publish outcomes are grouped into transactions (src/posts/batchedWrites.ts).
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchedWrites } from '../../src/posts/batchedWrites.ts';

function recorder() {
  const batches: string[][] = [];
  return { batches, write: async (items: string[]) => void batches.push(items) };
}

describe('batched writes', () => {
  it('writes items that arrive a little apart together, as soon as enough are waiting', async () => {
    const { batches, write } = recorder();
    const writes = new BatchedWrites(write, { waitMs: 600_000, enough: 3 });
    const first = writes.add('a');
    await sleep(5);
    const second = writes.add('b');
    await sleep(5);
    await Promise.all([first, second, writes.add('c')]);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('writes what it has when the wait is over', async () => {
    const { batches, write } = recorder();
    const writes = new BatchedWrites(write, { waitMs: 10, enough: 100 });
    await writes.add('alone');
    expect(batches).toEqual([['alone']]);
  });

  it('puts what arrives during a write into the next one, and fails only the items of a failed write', async () => {
    let finishFirst!: () => void;
    const batches: string[][] = [];
    const writes = new BatchedWrites(
      async (items: string[]) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((resolve) => (finishFirst = resolve));
        if (items.includes('bad')) throw new Error('refused');
      },
      { waitMs: 0, enough: 1 },
    );
    const first = writes.add('first');
    await sleep(5);
    const later = [writes.add('bad'), writes.add('also in the failed batch')].map((write) =>
      write.then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
    finishFirst();
    await first;
    expect(await Promise.all(later)).toEqual(['refused', 'refused']);
    expect(batches).toEqual([['first'], ['bad', 'also in the failed batch']]);
    await writes.add('after');
    expect(batches.at(-1)).toEqual(['after']);
  });
});
