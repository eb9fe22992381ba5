// Prisma's schema engine, compiled to WebAssembly: the same engine `prisma migrate` drives, without the native
// binary the Prisma CLI would download. Node cannot import a .wasm module without a flag, so it is instantiated here.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';

const require = createRequire(import.meta.url);
let loaded: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  loaded ??= (async () => {
    const wasmPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': bindings as unknown as WebAssembly.ModuleImports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return loaded;
}

export type SchemaEngine = bindings.SchemaEngine;

/**
 * @prisma/adapter-pg runs a migration script by splitting it on every `;`, which breaks function bodies
 * (`$$ ... ; ... $$`). PostgreSQL's simple query protocol takes the whole script at once, as `psql` and the
 * native engine send it.
 */
function wholeScripts(factory: PrismaPg): PrismaPg {
  type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
  const patch = (adapter: Adapter) => {
    const { client, onError } = adapter as unknown as { client: pg.Pool; onError(error: unknown): never };
    adapter.executeScript = async (script: string) => {
      try {
        await client.query(script);
      } catch (error) {
        onError.call(adapter, error);
      }
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => patch(await connectToShadowDb());
  return factory;
}

export async function withSchemaEngine<T>(
  connectionString: string,
  datamodel: { path: string; content: string },
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await loadWasm();
  // A pool of our own whose connections are closed afterwards: the engine never hands back the connection that
  // holds its advisory migration lock, which would keep the lock (and this process) alive.
  const clients = new Set<pg.Client>();
  class TrackedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      clients.add(this);
    }
  }
  const pool = new pg.Pool({ connectionString, max: 2, Client: TrackedClient, allowExitOnIdle: true });
  const adapter = bindMigrationAwareSqlAdapterFactory(wholeScripts(new PrismaPg(pool)));
  const engine = await bindings.SchemaEngine.new({ datamodels: [[datamodel.path, datamodel.content]] }, () => {}, adapter);
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all([...clients].map((client) => client.end().catch(() => {})));
    await pool.end().catch(() => {});
  }
}
