// The service, in-process, on its own test database and a random port: what the HTTP tests talk to.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { startRuntime, type Services } from '../../src/runtime.ts';
import { buildApp, prepareServer } from '../../rest/app.ts';
import type { ProviderTokens } from '../../src/providers/adapter.ts';
import { createTestDatabase } from './database.ts';

export interface TestService {
  url: string;
  databaseUrl: string;
  services: Services;
  stop(): Promise<void>;
}

/** `log`: where the service's log lines go (with LOG_LEVEL in `env`; the default level is silent). */
export async function startTestService(env: Record<string, string> = {}, databaseUrl?: string, log?: DestinationStream): Promise<TestService> {
  const url = databaseUrl ?? (await createTestDatabase());
  const dataDir = await mkdtemp(join(tmpdir(), 'sps-service-'));
  // Tests poll the API far faster than a person: the rate limit has tests of its own that set it low.
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REQUEST_LOG_FLUSH_MS: '50',
    STATUS_CHECK_MAX_MS: '300',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  const runtime = await startRuntime(config, createLogger(config.logLevel, log), { migrate: false });
  const app = await buildApp(runtime.services);
  const server: Server = await new Promise((resolve) => {
    // PORT: a port chosen beforehand, for a PUBLIC_BASE_URL naming it (OAuth's issuer and resource must be the address clients use).
    const listening = app.listen(Number(env.PORT ?? 0), '127.0.0.1', () => resolve(listening));
  });
  prepareServer(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    databaseUrl: url,
    services: runtime.services,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The tokens the service keeps for a connected account, unsealed. */
export async function storedTokens(service: TestService, connectionId: string): Promise<ProviderTokens> {
  const { rows } = await service.services.db.pool.query('SELECT encrypted_tokens FROM social_account WHERE id = $1', [connectionId]);
  return JSON.parse(service.services.secrets.open(rows[0].encrypted_tokens));
}
