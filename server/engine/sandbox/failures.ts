/**
 * Turns what a QuickJS evaluation threw into an `ActError('script.error', …)` and says whether the
 * failure was a limit breach (after which the runtime is replaced).
 */
import { ActError } from '../errors.ts';
import type { SandboxLimits } from './types.ts';

export type Limit = 'time' | 'memory' | 'stack';

export interface Failure {
  error: ActError;
  /** A limit was hit: the runtime must not be reused. */
  breach: boolean;
}

/** `33554432` → `32 MiB`, `524288` → `512 KiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

export function limitError(limit: Limit, limits: SandboxLimits): ActError {
  const message =
    limit === 'time'
      ? `script exceeded its time limit of ${limits.timeoutMs} ms`
      : limit === 'memory'
        ? `script exceeded its memory limit of ${formatBytes(limits.memoryBytes)}`
        : `script exceeded its stack limit of ${formatBytes(limits.stackBytes)} (recursion or nesting too deep)`;
  return new ActError('script.error', message, { limit });
}

interface ErrorLike {
  name?: unknown;
  message: string;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string';
}

function limitOf(thrown: unknown): Limit | undefined {
  if (!isErrorLike(thrown)) return undefined;
  if (thrown.name === 'InternalError' && thrown.message === 'out of memory') return 'memory';
  if (thrown.message === 'stack overflow') return 'stack';
  return undefined;
}

/** QuickJS reports a source that ends too early as an unexpected empty token. */
function readable(message: string): string {
  return message.replace(/^unexpected token in (.+): ''$/, 'unexpected end of $1');
}

/** The message of a value thrown by a script: `Error.message`, a thrown string, or its JSON. */
export function thrownMessage(thrown: unknown): string {
  if (isErrorLike(thrown)) {
    if (thrown.message !== '') return readable(thrown.message);
    return typeof thrown.name === 'string' ? thrown.name : 'error';
  }
  if (typeof thrown === 'string') return thrown;
  if (thrown === undefined) return 'script threw undefined';
  return JSON.stringify(thrown) ?? String(thrown);
}

/** Classifies what the VM threw. `timedOut` is true when the interrupt handler stopped the script. */
export function classifyThrown(thrown: unknown, timedOut: boolean, limits: SandboxLimits): Failure {
  const limit = timedOut ? 'time' : limitOf(thrown);
  if (limit) return { error: limitError(limit, limits), breach: true };
  const details = isErrorLike(thrown) && typeof thrown.name === 'string' ? { name: thrown.name } : undefined;
  return { error: new ActError('script.error', thrownMessage(thrown), details), breach: false };
}

/** An exception that escaped QuickJS into the host (the WebAssembly module is no longer usable). */
export function crashError(err: unknown, limits: SandboxLimits): ActError {
  if (err instanceof RangeError) return limitError('stack', limits);
  const message = err instanceof Error ? err.message : String(err);
  return new ActError('script.error', `the script sandbox crashed and was restarted: ${message}`);
}
