// Every call is recorded. Entries are buffered in memory and written in batches (one multi-row INSERT per
// flush), so recording never adds a database round trip to the request path.
import type { Database } from '../db/database.ts';

export interface RequestLogEntry {
  requestId: string;
  workspaceId: string | null;
  userId: string | null;
  apiKeyId: string | null;
  method: string;
  /** The route template (e.g. `/v1/posts/{id}`), never the raw path with ids. */
  route: string;
  status: number;
  durationMs: number;
  at: Date;
}

const maxBatch = 1000;
const maxBuffered = 50_000;

export class RequestRecorder {
  readonly #db: Database;
  readonly #timer: NodeJS.Timeout;
  readonly #onError: (error: unknown) => void;
  #buffer: RequestLogEntry[] = [];
  #flushing: Promise<void> = Promise.resolve();
  dropped = 0;

  constructor(db: Database, options: { flushIntervalMs: number; onError: (error: unknown) => void }) {
    this.#db = db;
    this.#onError = options.onError;
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.#timer.unref();
  }

  record(entry: RequestLogEntry): void {
    // Under a database outage the buffer is bounded: the oldest entries give way and are counted.
    if (this.#buffer.length >= maxBuffered) {
      this.#buffer.shift();
      this.dropped++;
    }
    this.#buffer.push(entry);
    if (this.#buffer.length >= maxBatch) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is in the database. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#writeAll());
    return this.#flushing;
  }

  async #writeAll(): Promise<void> {
    while (this.#buffer.length) {
      const batch = this.#buffer.splice(0, maxBatch);
      try {
        await this.#db.pool.query(
          `INSERT INTO request_log (request_id, workspace_id, user_id, api_key_id, method, route, status, duration_ms, created_at)
           SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::int[], $8::float8[], $9::timestamptz[])`,
          [
            batch.map((e) => e.requestId),
            batch.map((e) => e.workspaceId),
            batch.map((e) => e.userId),
            batch.map((e) => e.apiKeyId),
            batch.map((e) => e.method),
            batch.map((e) => e.route),
            batch.map((e) => e.status),
            batch.map((e) => e.durationMs),
            batch.map((e) => e.at),
          ],
        );
      } catch (error) {
        this.#buffer.unshift(...batch);
        this.#onError(error);
        return;
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
