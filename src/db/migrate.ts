// Applies prisma/migrations exactly as `prisma migrate deploy` would (same engine, same _prisma_migrations
// table), so operators may use either.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../projectRoot.js';
import pg from 'pg';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';

export const prismaDir = join(projectRoot, 'prisma');
export const migrationsDir = join(prismaDir, 'migrations');
export const schemaPath = join(prismaDir, 'schema.prisma');
const lockfileName = 'migration_lock.toml';
export const noExternalObjects = { externalTables: [], externalEnums: [] };

export async function readDatamodel() {
  return { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
}

export async function readMigrationList(): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockfile = await readFile(join(migrationsDir, lockfileName), 'utf8').catch(() => null);
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockfileName, content: lockfile },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

/**
 * Whether some migration in the list is not recorded as applied in _prisma_migrations (or the table is missing). A
 * failed one (finished_at null) counts as not applied, so the engine reports it as `prisma migrate deploy` would.
 */
async function anyPending(connectionString: string, migrationsList: MigrationList): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    return migrationsList.migrationDirectories.some((migration) => !applied.has(migration.path));
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return true; // undefined_table: a new database
    throw error;
  } finally {
    await client.end();
  }
}

/** Returns the names of the migrations applied by this call. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrationList();
  // Most starts find nothing to apply: one query instead of starting the schema engine (WebAssembly, half a second of CPU).
  if (!(await anyPending(connectionString, migrationsList))) return [];
  const { withSchemaEngine } = await import('./schemaEngine.ts');
  const output = await withSchemaEngine(connectionString, await readDatamodel(), (engine) =>
    engine.applyMigrations({ migrationsList, filters: noExternalObjects }),
  );
  return output.appliedMigrationNames;
}
