// Structured JSON logs on stderr (pino). Callers pass fields, never secrets: keys, tokens and passwords are not logged.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { currentRequestId } from './requestScope.ts';

export type { Logger };

/** Fields blanked wherever they appear at the top or one level down (an error's or a request's own fields). */
const secretFields = ['authorization', 'cookie', 'password', 'apiKey', 'tokens', 'accessToken', 'refreshToken'];

/** `destination`: where lines go instead of stderr (tests read them). */
export function createLogger(level: Config['logLevel'], destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: secretFields.flatMap((field) => [field, `*.${field}`]),
      // Lines written while serving a request, or running a job it started, say which request.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination,
  );
}
