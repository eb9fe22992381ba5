// One PostgreSQL for the whole run (DATABASE_URL when given, else an embedded one in a temporary folder), for the
// tiers that need one, with a migrated template database that every test file clones into a database of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type DatabaseServer } from '../../src/db/server.ts';
import { applyMigrations } from '../../src/db/migrate.ts';

export const templateName = 'sps_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

interface SharedDatabase {
  url: string;
  users: number;
  stop(): Promise<void>;
}

// Every tier that needs PostgreSQL names this setup, and vitest runs it once per tier: the tiers share one server
// (kept on globalThis, which all of them see in vitest's process) and the last to finish stops it.
const shared = globalThis as { spsTestDatabase?: Promise<SharedDatabase> };

async function startDatabase(): Promise<SharedDatabase> {
  let server: DatabaseServer;
  let dataDir: string | undefined;
  if (process.env.DATABASE_URL) {
    server = { url: process.env.DATABASE_URL, stop: async () => {} };
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'sps-test-'));
    server = await startEmbeddedPostgres(dataDir);
  }
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${templateName}`);
  await admin.end();
  await applyMigrations(withDatabase(server.url, templateName));
  return {
    url: server.url,
    users: 0,
    async stop() {
      await server.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  shared.spsTestDatabase ??= startDatabase();
  const database = await shared.spsTestDatabase;
  database.users += 1;
  project.provide('serverUrl', database.url);
  return async () => {
    database.users -= 1;
    if (database.users > 0) return;
    delete shared.spsTestDatabase;
    await database.stop();
  };
}
