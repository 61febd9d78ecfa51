/**
 * The runtime's keeper of `acts.app.state` values (engine/packages/state-types.ts `StateKeeper`)
 * with what the sweeper and the engine's close need of it, and its configuration.
 */
import type { StateKeeper } from '../../engine/packages/state-types.ts';

export interface StateConfig {
  /** Keep the values on this Redis (`redis://host:port/db`); unset: on the engine's store. */
  redisUrl?: string;
  /** Put before every Redis key (`<prefix><pid>:<key>`; default none). */
  redisPrefix?: string;
}

export interface ProcessState extends StateKeeper {
  /** Where the values are kept (`redis` or `store`), for health and logs. */
  readonly where: 'redis' | 'store';
  /** Deletes every value of process `pid` (the sweeper, before it deletes the process's rows). */
  removeProcess(pid: string): Promise<void>;
  close(): Promise<void>;
}
