// A publish in several calls (upload, initialize/append/finalize, wait for processing, create the post) as named
// steps whose results are saved before the next one: the worker stores the checkpoint on the target (committed at
// once), so a retried or crashed attempt resumes where the last one stopped: a finished upload is not sent again,
// and a post is created once.
//
// Each step is marked as started (saved) before its call and recorded with its result after it. A step found
// started but not recorded may or may not have reached the network; the adapter says what to do then
// (`ifInterrupted`): look the result up at the network, or send the call again where that cannot do harm (an
// idempotency key, a deterministic id, an upload part that replaces itself).

/** What an attempt finds of the attempts before it, and how it saves its own progress. */
export interface Checkpoint {
  /** What the last attempt saved; undefined on the first. */
  readonly saved: CheckpointState | undefined;
  save(state: CheckpointState): Promise<void>;
}

export interface CheckpointState {
  /** Results of finished steps, by name. */
  done: Record<string, unknown>;
  /** When each finished step was recorded (ms since the epoch), for results that expire at the network. */
  at?: Record<string, number>;
  /** The step whose call was sent last and has no result yet. */
  started?: string;
}

export interface StepOptions<T> {
  /**
   * The step was started by an earlier attempt that stopped before its result was saved: its result at the network if
   * it got there (found by a look-up), or null to send the call again. Without it the call is sent again.
   */
  ifInterrupted?: () => Promise<T | null>;
}

export class Steps {
  readonly #checkpoint: Checkpoint;
  readonly #state: CheckpointState;

  constructor(checkpoint: Checkpoint) {
    this.#checkpoint = checkpoint;
    const saved = checkpoint.saved;
    this.#state = { done: { ...saved?.done }, at: { ...saved?.at }, started: saved?.started };
  }

  /** The result of `name` if an attempt finished it. */
  result<T>(name: string): T | undefined {
    return this.#state.done[name] as T | undefined;
  }

  /** When a finished step was recorded (ms since the epoch). */
  recordedAt(name: string): number | undefined {
    return this.#state.at?.[name];
  }

  /**
   * Forgets the steps named `prefix` or `prefix:…`, so they run again: for results the network lets expire (X's media
   * ids after a day), where an attempt comes long after the one that recorded them.
   */
  async forget(prefix: string): Promise<void> {
    const forgotten = (name: string) => name === prefix || name.startsWith(`${prefix}:`);
    const names = Object.keys(this.#state.done).filter(forgotten);
    if (!names.length) return;
    for (const name of names) {
      delete this.#state.done[name];
      delete this.#state.at?.[name];
    }
    await this.#save(this.#state);
  }

  /** Runs `call` once across attempts: a finished step returns its saved result without calling the network. */
  async once<T>(name: string, call: () => Promise<T>, options: StepOptions<T> = {}): Promise<T> {
    if (Object.hasOwn(this.#state.done, name)) return this.#state.done[name] as T;
    const interrupted = this.#state.started === name;
    const found = interrupted && options.ifInterrupted ? await options.ifInterrupted() : null;
    if (found !== null) return this.#record(name, found);
    if (!interrupted) await this.#save({ ...this.#state, started: name });
    return this.#record(name, await call());
  }

  /** Saves a result found without a call (a status the network reported), so later attempts need not ask again. */
  async record<T>(name: string, result: T): Promise<T> {
    return this.#record(name, result);
  }

  async #record<T>(name: string, result: T): Promise<T> {
    // JSON keeps no undefined: a step without a result is recorded as null so that it still counts as done.
    this.#state.done[name] = result === undefined ? null : result;
    this.#state.at = { ...this.#state.at, [name]: Date.now() };
    this.#state.started = undefined;
    await this.#save(this.#state);
    return result;
  }

  async #save(state: CheckpointState): Promise<void> {
    await this.#checkpoint.save({ done: state.done, at: state.at, ...(state.started ? { started: state.started } : {}) });
  }
}
