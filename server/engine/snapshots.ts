/**
 * Snapshot stores (spec 5.8): outside systems push versioned key/value snapshots per scope (a
 * tenant, an owner id, or `*` for everyone) into named targets held in memory; a task reads the
 * local snapshot of its process's scope and seals it into its data under the target's name, with
 * no I/O on the hot path. Sealed values are durable through task rows, so a replayed task keeps
 * what it sealed first.
 *
 * Policies: `per_proc` — the root task seals, every task of the process sees that value;
 * `per_task` — every new task seals the latest value. Entries expire `ttlMs` after their push and
 * are dropped on the next tick. Registering a target again replaces it and drops its values.
 */
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';

export type SnapshotPolicy = 'per_proc' | 'per_task';

export interface SnapshotOptions {
  policy?: SnapshotPolicy;
  /** Entries older than this are dropped on the next tick (default: never). */
  ttlMs?: number;
}

interface Entry {
  version: number;
  values: Vars;
  pushedAt: number;
}

export const GLOBAL_SCOPE = '*';

class SnapshotStore {
  readonly entries = new Map<string, Entry>();
  constructor(readonly policy: SnapshotPolicy, readonly ttlMs: number | undefined) {}
}

export class Snapshots {
  private readonly targets = new Map<string, SnapshotStore>();

  register(target: string, options: SnapshotOptions = {}): void {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(target)) {
      throw new ActError('config.invalid', `snapshot target '${target}' must be a plain identifier (it becomes a variable name)`);
    }
    const policy = options.policy ?? 'per_proc';
    if (policy !== 'per_proc' && policy !== 'per_task') throw new ActError('config.invalid', `unknown snapshot policy '${String(policy)}'`);
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) throw new ActError('config.invalid', 'snapshot ttlMs must be a positive number');
    this.targets.set(target, new SnapshotStore(policy, options.ttlMs));
  }

  /** Stores a snapshot unless a newer version of that scope is held; returns whether it was kept. */
  push(target: string, scope: string, version: number, values: Vars, now: number): boolean {
    const store = this.targets.get(target);
    if (!store) throw new ActError('config.invalid', `no snapshot target '${target}' is registered`);
    const current = store.entries.get(scope);
    if (current && current.version >= version) return false;
    store.entries.set(scope, { version, values: { ...values }, pushedAt: now });
    return true;
  }

  remove(target: string, scope: string): void {
    this.targets.get(target)?.entries.delete(scope);
  }

  /** Drops entries past their TTL. */
  sweep(now: number): number {
    let dropped = 0;
    for (const store of this.targets.values()) {
      if (store.ttlMs === undefined) continue;
      for (const [scope, entry] of store.entries) {
        if (now - entry.pushedAt >= store.ttlMs) {
          store.entries.delete(scope);
          dropped++;
        }
      }
    }
    return dropped;
  }

  /**
   * Seals the snapshots a new task must hold into its data: for the root every target, for other
   * tasks the `per_task` ones. A task that already holds a value (a replay) keeps it.
   */
  seal(data: Vars, scope: string, isRoot: boolean): void {
    for (const [target, store] of this.targets) {
      if (!isRoot && store.policy === 'per_proc') continue;
      if (Object.hasOwn(data, target)) continue;
      const entry = store.entries.get(scope) ?? store.entries.get(GLOBAL_SCOPE);
      if (entry) data[target] = { ...entry.values };
    }
  }
}
