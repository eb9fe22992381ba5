// Applies prisma/migrations exactly as `prisma migrate deploy` would (same engine, same _prisma_migrations
// table), so operators may use either.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../projectRoot.js';
import { withSchemaEngine } from './schemaEngine.ts';
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

/** Returns the names of the migrations applied by this call. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrationList();
  const output = await withSchemaEngine(connectionString, await readDatamodel(), (engine) =>
    engine.applyMigrations({ migrationsList, filters: noExternalObjects }),
  );
  return output.appliedMigrationNames;
}
