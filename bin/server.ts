// `npm start`: runs the service until SIGTERM or SIGINT, then shuts down in order: stop accepting requests,
// let in-flight ones finish, flush the request log, close the pool, stop the embedded database.
import type { Server } from 'node:http';
import { requireSupportedNode } from './supportedNode.js';

// Static imports would load the dependencies (and crash in them on an old Node) before any check could run.
requireSupportedNode();
const { loadConfig } = await import('../src/config.ts');
const { createLogger } = await import('../src/logger.ts');
const { startRuntime } = await import('../src/runtime.ts');
const { anyWorkspaceExists } = await import('../src/workspaces/workspaces.ts');
const { buildApp, buildWorkerApp, prepareServer } = await import('../rest/app.ts');
const { listenFailure, nextSteps } = await import('./startMessages.ts');

const config = loadConfig();
const logger = createLogger(config.logLevel);
// An error nothing handled (a rejection counts, Node raises it as one) is a defect: it goes to the log as well,
// and the process still ends as Node ends it, rather than running on in a state nobody planned for.
process.on('uncaughtExceptionMonitor', (error, origin) => logger.fatal({ err: error, origin }, 'unhandled error: the process ends'));
const runtime = await startRuntime(config, logger);
// A worker (SPS_ROLE=worker) answers only its probes and /metrics, on WORKER_PORT.
const isWorker = config.role === 'worker';
const app = isWorker ? buildWorkerApp(runtime.services) : await buildApp(runtime.services);
const listenPort = isWorker ? config.workerPort : config.port;
const hasWorkspace = await anyWorkspaceExists(runtime.services.db);
const server: Server = app.listen(listenPort, config.host, async (error?: NodeJS.ErrnoException) => {
  if (error) {
    logger.fatal({ port: listenPort, host: config.host, code: error.code }, listenFailure(error, { port: listenPort, host: config.host }));
    await runtime.stop();
    process.exit(1);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listenPort;
  logger.info(
    { port, role: config.role, database: config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.dataDir})` },
    `listening on http://localhost:${port}`,
  );
  if (!isWorker) for (const step of nextSteps({ publicBaseUrl: config.publicBaseUrl, hasWorkspace })) logger.info(step);
});
prepareServer(server);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const forceClose = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
  forceClose.unref();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearTimeout(forceClose);
  try {
    await runtime.stop();
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
