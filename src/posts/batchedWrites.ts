// Writes items as they arrive, a batch at a time: whatever arrived while the previous write ran, or while the next
// one waited a little for company, goes into it. Publishing records each target's outcome as soon as the network
// answers, so one slow network call never holds back the recording of the others, while outcomes that finish
// close together share one transaction (one commit, one round of statements) instead of one each.

export interface GatherOptions {
  /** How long a write waits for more items to join it... */
  waitMs: number;
  /** ...unless this many are already there: bursts are written at once. */
  enough: number;
}

export class BatchedWrites<Item> {
  readonly #write: (items: Item[]) => Promise<void>;
  readonly #gather: GatherOptions;
  #waiting: { item: Item; done: () => void; failed: (error: unknown) => void }[] = [];
  #writing = false;
  /** Ends the current wait for company early. */
  #enoughNow: (() => void) | null = null;

  constructor(write: (items: Item[]) => Promise<void>, gather: GatherOptions) {
    this.#write = write;
    this.#gather = gather;
  }

  /** Resolves once the item is written (rejects when its batch failed). */
  add(item: Item): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ item, done, failed });
      if (this.#waiting.length >= this.#gather.enough) this.#enoughNow?.();
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length) {
      if (this.#waiting.length < this.#gather.enough && this.#gather.waitMs > 0) await this.#companyOrTimeout();
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

  #companyOrTimeout(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#enoughNow?.(), this.#gather.waitMs);
      this.#enoughNow = () => {
        clearTimeout(timer);
        this.#enoughNow = null;
        resolve();
      };
    });
  }
}
