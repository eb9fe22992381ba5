// Relations without N+1 queries: a field resolved for every item of a list asks its loader for one key; the keys
// asked for while the list is being resolved are loaded together, by one domain call, once per request.
// (@pothos/plugin-dataloader would do this too; it is not among our dependencies.)
import type { GraphContext } from './builder.ts';

type LoadMany<Value> = (context: GraphContext, keys: string[]) => Promise<Map<string, Value>>;

class BatchLoader<Value> {
  private readonly loaded = new Map<string, Promise<Value | undefined>>();
  private pending: { key: string; resolve: (value: Value | undefined) => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly context: GraphContext,
    private readonly loadMany: LoadMany<Value>,
  ) {}

  load(key: string): Promise<Value | undefined> {
    let value = this.loaded.get(key);
    if (!value) {
      value = new Promise((resolve, reject) => {
        // The first key of a batch waits for the rest: every sibling field is resolved before the event loop turns.
        if (this.pending.length === 0) setImmediate(() => void this.dispatch());
        this.pending.push({ key, resolve, reject });
      });
      this.loaded.set(key, value);
    }
    return value;
  }

  private async dispatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const values = await this.loadMany(
        this.context,
        batch.map((entry) => entry.key),
      );
      for (const entry of batch) entry.resolve(values.get(entry.key));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

const loadersOf = new WeakMap<GraphContext, Map<LoadMany<unknown>, BatchLoader<unknown>>>();

/** Defines a relation's loader: `loader(context).load(key)` batches with every other key of the same request. */
export function defineLoader<Value>(loadMany: LoadMany<Value>): (context: GraphContext) => BatchLoader<Value> {
  return (context) => {
    let loaders = loadersOf.get(context);
    if (!loaders) {
      loaders = new Map();
      loadersOf.set(context, loaders);
    }
    let loader = loaders.get(loadMany as LoadMany<unknown>);
    if (!loader) {
      loader = new BatchLoader(context, loadMany as LoadMany<unknown>);
      loaders.set(loadMany as LoadMany<unknown>, loader);
    }
    return loader as BatchLoader<Value>;
  };
}
