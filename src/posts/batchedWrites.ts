// Writes items as they arrive, a batch at a time: whatever arrived while the previous write ran goes into the
// next one. Publishing records each target's outcome the moment the network answers, so one slow network call
// never holds back the recording of the others, while outcomes that finish together still share one transaction.
export class BatchedWrites<Item> {
  readonly #write: (items: Item[]) => Promise<void>;
  #waiting: { item: Item; done: () => void; failed: (error: unknown) => void }[] = [];
  #writing = false;

  constructor(write: (items: Item[]) => Promise<void>) {
    this.#write = write;
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
