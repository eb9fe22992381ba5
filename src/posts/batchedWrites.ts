// Writes items as they arrive, a batch at a time: whatever arrived while the previous write ran, or within a few
// milliseconds of the first, goes into the next one. Publishing records each target's outcome as soon as the
// network answers, so one slow network call never holds back the recording of the others, while outcomes that
// finish close together share one transaction (one commit, one round of statements) instead of one each.
import { setTimeout as sleep } from 'node:timers/promises';

export class BatchedWrites<Item> {
  readonly #write: (items: Item[]) => Promise<void>;
  readonly #gatherMs: number;
  #waiting: { item: Item; done: () => void; failed: (error: unknown) => void }[] = [];
  #writing = false;

  /** `gatherMs`: how long a write waits for more items to join it. */
  constructor(write: (items: Item[]) => Promise<void>, gatherMs = 0) {
    this.#write = write;
    this.#gatherMs = gatherMs;
  }

  /** Resolves once the item is written (rejects when its batch failed). */
  add(item: Item): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ item, done, failed });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length) {
      if (this.#gatherMs) await sleep(this.#gatherMs);
      const batch = this.#waiting.splice(0);
      try {
        await this.#write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.#writing = false;
  }
}
