/**
 * Structured logs with pino. Secrets never reach the log: cookie and authorization headers,
 * passwords and tokens are redacted wherever they appear (two levels deep); request logs carry
 * method, path, status and time only. The engine's plain-text logger is adapted to pino.
 */
import pino, { type Logger } from 'pino';
import type { Logger as EngineLogger } from '../engine/logger.ts';

const SECRET_KEYS = ['password', 'token', 'cookie', 'authorization', 'sessionToken', 'set-cookie'];

export const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`)];

export interface LoggerOptions {
  level?: string;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const config = { level: options.level ?? process.env.LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'acts' } };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** The engine's logger on top of pino; engine messages name their pid and tid in the text. */
export function engineLogger(log: Logger): EngineLogger {
  const engine = log.child({ component: 'engine' });
  return {
    debug: (m) => engine.debug(m),
    info: (m) => engine.info(m),
    warn: (m) => engine.warn(m),
    error: (m) => engine.error(m),
  };
}
