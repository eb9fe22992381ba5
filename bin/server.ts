// `npm start`: runs the service until SIGTERM or SIGINT, then shuts down in order: stop accepting requests,
// let in-flight ones finish, flush the request log, close the pool, stop the embedded database.
import type { Server } from 'node:http';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { startRuntime } from '../src/runtime.ts';
import { buildApp } from '../rest/app.ts';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const runtime = await startRuntime(config, logger);
const app = await buildApp(runtime.services);
const server: Server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, database: config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.dataDir})` }, `listening on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const forceClose = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
  forceClose.unref();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearTimeout(forceClose);
  await runtime.stop();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
