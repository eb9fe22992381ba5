// `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded database, then exits.
import { loadConfig } from '../src/config.ts';
import { openDatabaseServer } from '../src/db/server.ts';
import { applyMigrations } from '../src/db/migrate.ts';

const server = await openDatabaseServer(loadConfig());
try {
  const applied = await applyMigrations(server.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await server.stop();
}
// The wasm schema engine leaves a 10 s timer behind; the command is done, so exit now.
process.exit();
