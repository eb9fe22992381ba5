// Structured JSON logs on stderr (pino). Callers pass fields, never secrets: keys, tokens and passwords are not logged.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';
import { currentRequestId } from './requestScope.ts';

export type { Logger };

export function createLogger(level: Config['logLevel']): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: ['authorization', 'cookie', 'password', 'apiKey', 'tokens'],
      // Lines written while serving a request, or running a job it started, say which request.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    pino.destination(2),
  );
}
