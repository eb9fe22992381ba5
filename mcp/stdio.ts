// MCP over stdio (`npm run mcp`, `sps mcp`): the API key comes from SPS_API_KEY and is resolved for every call as
// /mcp resolves it per request, so revocation, scopes, plans and the rate limit apply at once; each call is recorded
// in the request log (method MCP, route `tools/call <tool>`). stdout carries the protocol only: logs go to stderr.
// It serves an installation the server set up (DATA_DIR or DATABASE_URL) and never makes a database of its own.
import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { startRuntime } from '../src/runtime.ts';
import { NoInstallation } from '../src/db/installation.ts';
import { languages, type Language } from '../src/errors/messages.ts';
import { AppError } from '../src/errors/appError.ts';
import { localizeError } from '../src/errors/localize.ts';
import { graphRunner } from './graph.ts';
import { createMcpServer } from './server.ts';

/** The caller's language from SPS_LANGUAGE, else the locale (LANG), else English. */
function languageFrom(env: NodeJS.ProcessEnv): Language {
  const tag = (env.SPS_LANGUAGE ?? env.LANG ?? '').slice(0, 2).toLowerCase();
  return (languages as readonly string[]).includes(tag) ? (tag as Language) : 'en';
}

export async function serveStdio(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel);
  const language = languageFrom(env);
  const token = env.SPS_API_KEY;
  if (!token) {
    logger.fatal('SPS_API_KEY is not set: give the MCP server an API key of the workspace (sps keys create).');
    process.exit(2);
  }
  // A server that finds no database where it was pointed says so: a new, empty one would only refuse every key.
  const runtime = await startRuntime(config, logger, { existing: true }).catch((error: unknown) => {
    if (!(error instanceof NoInstallation)) throw error;
    logger.fatal(error.message);
    return process.exit(2);
  });
  const { services } = runtime;
  const credentials = { kind: 'apiKey', token } as const;
  try {
    await services.callers.resolve(credentials);
  } catch (error) {
    logger.fatal(error instanceof AppError ? localizeError(error, language).message : error, 'SPS_API_KEY is refused');
    await runtime.stop();
    process.exit(1);
  }
  const server = createMcpServer(graphRunner(logger), {
    context: async () => ({ services, actor: (await services.callers.resolve(credentials)).actor, language, requestId: randomUUID() }),
    fallback: () => ({ language, requestId: randomUUID() }),
    called: ({ actor, requestId }, tool, status, durationMs) =>
      services.recorder.record({
        requestId,
        workspaceId: actor.workspaceId,
        userId: actor.userId,
        apiKeyId: actor.apiKeyId,
        method: 'MCP',
        route: `tools/call ${tool}`,
        status,
        durationMs,
        at: new Date(),
      }),
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await runtime.stop();
    process.exit(0);
  };
  process.stdin.on('close', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await server.connect(new StdioServerTransport());
  logger.info('MCP server on stdio');
}
