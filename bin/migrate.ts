// `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded database, then exits.
import { requireSupportedNode } from './supportedNode.js';

// Static imports would load the dependencies (and crash in them on an old Node) before any check could run.
requireSupportedNode();
const { loadConfig } = await import('../src/config.ts');
const { openDatabaseServer } = await import('../src/db/server.ts');
const { applyMigrations } = await import('../src/db/migrate.ts');

const server = await openDatabaseServer(loadConfig());
try {
  const applied = await applyMigrations(server.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await server.stop();
}
// The wasm schema engine leaves a 10 s timer behind; the command is done, so exit now.
process.exit();
