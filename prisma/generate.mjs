// `prisma generate` (run on install). Generation needs no schema engine, but the Prisma CLI would download the
// native one at start; pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file skips that download.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url),
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const result = spawnSync('prisma', ['generate'], { stdio: 'inherit', env, shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
