import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

const templateName = 'sps_test_template';

/** A fresh, migrated database of its own for the calling test file. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('serverUrl');
  const name = `sps_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
