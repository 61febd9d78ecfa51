/**
 * The keeper of `acts.app.state` values an engine gets: on Redis when ACTS_STATE_REDIS_URL is set
 * (redis-state.ts), else on the engine's own store (store-state.ts).
 */
import type { Clock } from '../../engine/clock.ts';
import type { Store } from '../../store/contract/types.ts';
import { RedisState } from './redis-state.ts';
import { StoreState } from './store-state.ts';
import type { ProcessState, StateConfig } from './types.ts';

export type { ProcessState, StateConfig } from './types.ts';

export function processState(config: StateConfig | undefined, store: Store, clock: Clock): ProcessState {
  return config?.redisUrl ? new RedisState(config.redisUrl, config.redisPrefix ?? '') : new StoreState(store, clock);
}
