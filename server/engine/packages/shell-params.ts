/**
 * The params of `acts.app.shell` (spec 1.9.2; their JSON Schema is `SHELL_PARAMS` in
 * params-schemas.ts): their defaults, the request they stand for once the templates rendered, and
 * how the script's stdout becomes the act's `data`.
 */
import { ActError } from '../errors.ts';
import type { ShellName, ShellScript } from './shell-types.ts';

export const SHELL_DEFAULTS = { timeoutSecs: 60, maxTimeoutSecs: 86_400, maxBytes: 1024 * 1024 } as const;

export const SHELL_OUTPUT_TYPES = ['text', 'json'] as const;

/** A name the script's environment may carry (a POSIX shell variable name). */
export const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

export interface ShellParams {
  shell?: ShellName;
  script: string;
  'content-type'?: (typeof SHELL_OUTPUT_TYPES)[number];
  env?: Record<string, string | number | boolean | null>;
  timeout?: number;
  max_bytes?: number;
}

/** The script the (rendered, schema-checked) params stand for. */
export function shellScriptOf(p: ShellParams): ShellScript {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env ?? {})) env[k] = v === null ? '' : String(v);
  return {
    shell: p.shell ?? 'sh',
    script: p.script,
    env,
    timeoutMs: Math.round((p.timeout ?? SHELL_DEFAULTS.timeoutSecs) * 1000),
    maxBytes: p.max_bytes ?? SHELL_DEFAULTS.maxBytes,
  };
}

/** The act's `data` from a script's stdout: text less one trailing newline, or parsed JSON (`shell.bad_json`). */
export function outputOf(stdout: string, type: ShellParams['content-type']): unknown {
  const text = stdout.endsWith('\n') ? stdout.slice(0, stdout.endsWith('\r\n') ? -2 : -1) : stdout;
  if (type !== 'json') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new ActError('shell.bad_json', `the script's output is not JSON (${(err as Error).message}): '${shown}' — print one JSON value, or set content-type: text`);
  }
}
