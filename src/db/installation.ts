// Whether DATA_DIR or DATABASE_URL leads to this service's database: checked by processes that serve an installation
// they did not set up (MCP over stdio), which must refuse rather than start a new, empty database where an agent's
// configuration forgot to point them.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';

/** DATA_DIR or DATABASE_URL leads to no database of this service, or to one with no workspace yet. */
export class NoInstallation extends Error {
  override name = 'NoInstallation';
}

const settingsHint = 'Set DATA_DIR to the folder the server keeps its data in, or DATABASE_URL to its database (the server logs which at start).';

/** Where the database is, for people: the embedded one's folder, or DATABASE_URL's host and database without its credentials. */
function whereOf(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded database in DATA_DIR (${config.dataDir})`;
  const url = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl) : null;
  return `the database at DATABASE_URL (${url ? `${url.host}${url.pathname}` : 'not a URL'})`;
}

const present = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Before anything is started: an embedded database exists once its cluster was initialised (PG_VERSION), and the
 * key the server seals tokens with is ENCRYPTION_KEY or DATA_DIR's encryption-key (a new one would open none of them).
 */
export async function requireDataFolder(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'encryptionKey'>): Promise<void> {
  if (!config.databaseUrl && !(await present(join(config.dataDir, 'postgres', 'PG_VERSION')))) {
    throw new NoInstallation(`No database found: DATA_DIR (${config.dataDir}) holds no database of this service, and none is created here. ${settingsHint}`);
  }
  if (!config.encryptionKey && !(await present(join(config.dataDir, 'encryption-key')))) {
    throw new NoInstallation(
      `No encryption key found: ENCRYPTION_KEY is not set and DATA_DIR (${config.dataDir}) holds no encryption-key. Set DATA_DIR to the server's data folder, or ENCRYPTION_KEY to the server's key.`,
    );
  }
}

/** Once the database server runs: its schema is migrated and it has a workspace (`sps setup` made one). */
export async function requireWorkspace(config: Pick<Config, 'databaseUrl' | 'dataDir'>, connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ migrated: boolean }>(`SELECT to_regclass('workspace') IS NOT NULL AS migrated`);
    if (!tables[0]?.migrated) throw new NoInstallation(`No database found: ${whereOf(config)} holds no tables of this service. ${settingsHint}`);
    const { rows } = await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM workspace) AS found');
    if (!rows[0]?.found) {
      throw new NoInstallation(
        `${whereOf(config)} has no workspace yet: create one with sps setup, or point DATA_DIR or DATABASE_URL at the server's database.`,
      );
    }
  } finally {
    await client.end();
  }
}
