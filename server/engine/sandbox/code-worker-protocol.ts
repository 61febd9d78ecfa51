/** Messages between the engine's thread and a code worker (see code-pool.ts, code-worker.ts). */
import type { EvalMode, SandboxLimits } from './types.ts';

export interface CodeWorkerData {
  limits: SandboxLimits;
  /** The port scope calls go out on; the engine answers on it and then wakes the worker. */
  callPort: MessagePort;
  /** One Int32 the worker waits on: 1 once an answer is on `callPort`. */
  flag: SharedArrayBuffer;
}

/** Engine → worker (on the worker's parent port). */
export interface RunRequest {
  id: number;
  source: string;
  mode: EvalMode;
}

/** Worker → engine (on the parent port): the evaluation's JSON value, or the error it failed with. */
export type RunResult =
  | { type: 'ready' }
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: { code: string; message: string; details?: unknown } };
