/**
 * What an `acts.app.state` act asks of the engine's state keeper (the runtime's: Redis when
 * configured, else the engine's own store) and what comes back. Values are per process, keyed
 * `<pid>:<key>`.
 */

export const STATE_OPS = ['GET', 'SET'] as const;

export type StateOp = { op: 'GET'; key: string } | { op: 'SET'; key: string; value: unknown };

/** The engine's state keeper: its calls fail with an `ActError` whose code is `state.*`. */
export interface StateKeeper {
  /** The value process `pid` set under `key`; null when none. */
  get(pid: string, key: string): Promise<unknown>;
  /** Sets (replaces) the value of `key` for process `pid`. */
  set(pid: string, key: string, value: unknown): Promise<void>;
}
