/**
 * Structured logs with pino. Secrets never reach the log: cookie and authorization headers,
 * passwords and tokens are redacted in a line's fields and two levels of objects below them, and
 * in a child logger's bindings; request logs carry method, path, status and
 * time only. The engine's plain-text logger is adapted to pino.
 *
 * Below the top level, redaction is a formatter rather than pino's wildcard `redact` paths
 * (`*.token`, `*.*.token`), which run a generic stringifier on every field of every line: ~2 % of
 * the server's CPU under API load, where a line has a handful of fields to look at. The top-level
 * keys stay pino `redact` paths, which also cover a child logger's bindings.
 */
import pino, { type Logger } from 'pino';
import type { Logger as EngineLogger } from '../engine/logger.ts';

const SECRET_KEYS = new Set(['password', 'token', 'cookie', 'authorization', 'sessionToken', 'set-cookie']);
const CENSOR = '[redacted]';
/** The levels of objects searched: a line's fields, their objects' fields, and those's. */
const REDACT_DEPTH = 3;

/** `fields` with the value of every secret key censored, `depth` levels deep; copied only where a secret was. */
export function redactSecrets<T extends object>(fields: T, depth = REDACT_DEPTH): T {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) continue;
    const value: unknown = fields[key];
    let safe = value;
    if (SECRET_KEYS.has(key)) safe = CENSOR;
    else if (depth > 1 && value !== null && typeof value === 'object' && !(value instanceof Error)) safe = redactSecrets(value, depth - 1);
    if (safe !== value) (copy ??= (Array.isArray(fields) ? [...fields] : { ...fields }) as Record<string, unknown>)[key] = safe;
  }
  return (copy as T | undefined) ?? fields;
}

export interface LoggerOptions {
  level?: string;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const config = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: [...SECRET_KEYS], censor: CENSOR },
    formatters: { log: (fields: Record<string, unknown>) => redactSecrets(fields) },
    base: { service: 'acts' },
  };
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
