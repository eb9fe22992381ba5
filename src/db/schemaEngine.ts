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

export async function withSchemaEngine<T>(
  connectionString: string,
  datamodel: { path: string; content: string },
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await loadWasm();
  // A pool of our own, ended afterwards: the engine's advisory migration lock lives on its connection.
  const pool = new pg.Pool({ connectionString, max: 2 });
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const engine = await bindings.SchemaEngine.new(
    { datamodels: [[datamodel.path, datamodel.content]] },
    () => {},
    adapter,
  );
  try {
    return await use(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}
