/**
 * `acts.app.state` values on the engine's own store (the `states` collection; SQLite, PostgreSQL
 * or memory): one row per `<pid>:<key>`. The sweeper deletes a process's rows with its other
 * rows, in the same batch (StoreQueries.deleteProcessRows). Stateless beyond the store.
 */
import type { Clock } from '../../engine/clock.ts';
import { ActError, errorMessage } from '../../engine/errors.ts';
import type { Store } from '../../store/contract/types.ts';
import type { ProcessState } from './types.ts';

export class StoreState implements ProcessState {
  readonly where = 'store';

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async get(pid: string, key: string): Promise<unknown> {
    const row = await this.failing(() => this.store.states.find(`${pid}:${key}`));
    return row?.value ?? null;
  }

  async set(pid: string, key: string, value: unknown): Promise<void> {
    await this.failing(() => this.store.states.upsert({ id: `${pid}:${key}`, pid, key, value: value ?? null, update_time: this.clock.now() }));
  }

  /** Nothing to do: the sweeper's batch deletes the rows. */
  async removeProcess(): Promise<void> {}

  async close(): Promise<void> {}

  private async failing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (ActError.is(err)) throw err;
      throw new ActError('state.unavailable', `the state store failed: ${errorMessage(err)}`);
    }
  }
}
