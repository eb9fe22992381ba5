// Structured JSON logs on stderr (pino). Callers pass fields, never secrets: keys, tokens and passwords are not logged.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export function createLogger(level: Config['logLevel']): Logger {
  return pino({ level, base: undefined, redact: ['authorization', 'cookie', 'password', 'apiKey', 'tokens'] }, pino.destination(2));
}
