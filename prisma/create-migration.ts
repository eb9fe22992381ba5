// Developer command: `npm run db:migration -- <name> [--from <schema file>]` writes
// prisma/migrations/<timestamp>_<name>/migration.sql, the SQL that takes the committed prisma/schema.prisma
// (git HEAD, or the file given) to the working copy. Prisma's engine diffs
// the two datamodels itself (the wasm engine cannot introspect a shadow database). SQL that Prisma does not
// model (functions, triggers) goes into a hand-written migration of its own.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withSchemaEngine } from '../src/db/schemaEngine.ts';
import { migrationsDir, noExternalObjects, readDatamodel } from '../src/db/migrate.ts';
import { openDatabaseServer } from '../src/db/server.ts';
import { loadConfig } from '../src/config.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- <name, lower case and underscores>');
  process.exit(2);
}
const fromIndex = process.argv.indexOf('--from');
const committed = (() => {
  if (fromIndex > 0) return readFileSync(process.argv[fromIndex + 1]!, 'utf8');
  try {
    return execFileSync('git', ['show', 'HEAD:prisma/schema.prisma'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
})();
const server = await openDatabaseServer(loadConfig());
try {
  const datamodel = await readDatamodel();
  const sql = await withSchemaEngine(server.url, datamodel, async (engine) => {
    const result = await engine.diff({
      from: committed ? { tag: 'schemaDatamodel', files: [{ path: datamodel.path, content: committed }] } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [datamodel] },
      script: true,
      exitCode: null,
      filters: noExternalObjects,
    });
    return result.stdout ?? '';
  });
  if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log('schema.prisma matches the committed one: nothing to write');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'migration.sql'), sql);
    await writeFile(join(migrationsDir, 'migration_lock.toml'), 'provider = "postgresql"\n');
    console.log(`wrote ${dir}/migration.sql`);
  }
} finally {
  await server.stop();
}
process.exit();
