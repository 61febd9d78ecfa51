/**
 * A store that dies on cue, for crash equivalence: it passes every call to the real store and,
 * once armed, counts the writes that completed (a transaction counts once). When the count reaches
 * `crashAfter` the store is dead — like a process killed right after that commit: every later
 * call, read or write, fails with `SimulatedCrash` and reaches nothing, so the engine that used
 * it can change no more rows. A new engine then opens the same database file.
 *
 * States: live (not counting) → armed (counting) → dead (everything refused).
 */
import type { Collection, Store } from '../../server/store/contract/types.ts';

export class SimulatedCrash extends Error {
  constructor() {
    super('simulated crash: the store is gone');
    this.name = 'SimulatedCrash';
  }
}

const COLLECTION_METHODS = ['exists', 'find', 'query', 'create', 'update', 'upsert', 'delete', 'deleteWhere'];
const WRITES = new Set(['create', 'update', 'upsert', 'delete', 'deleteWhere']);

export class CrashStore {
  /** Writes completed since `arm()`. */
  writes = 0;
  dead = false;
  private armed = false;
  readonly store: Store;

  constructor(
    private readonly inner: Store,
    private readonly crashAfter: number | undefined,
    private readonly onCrash: () => void,
  ) {
    this.store = this.wrap();
  }

  /** Starts counting (writes before, such as the engine's own start-up, do not count). */
  arm(): void {
    this.armed = true;
  }

  private wrote(): void {
    if (!this.armed) return;
    this.writes++;
    if (this.crashAfter !== undefined && this.writes >= this.crashAfter && !this.dead) {
      this.dead = true;
      this.onCrash();
    }
  }

  private guard<T>(call: () => Promise<T>, write: boolean): Promise<T> {
    if (this.dead) return Promise.reject(new SimulatedCrash());
    return call().then((result) => {
      if (this.dead) throw new SimulatedCrash();
      if (write) this.wrote();
      return result;
    });
  }

  /** `inner`'s methods `names`, each guarded (a write when `isWrite` says so). */
  private methods<T extends object>(inner: T, names: readonly string[], isWrite: (name: string) => boolean): T {
    const out = {} as Record<string, unknown>;
    for (const name of names) {
      const method = (inner as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name].bind(inner);
      out[name] = (...args: unknown[]) => this.guard(() => method(...args), isWrite(name));
    }
    return out as T;
  }

  private collection<T extends { id: string }>(inner: Collection<T>): Collection<T> {
    return this.methods(inner, COLLECTION_METHODS, (name) => WRITES.has(name));
  }

  private wrap(): Store {
    const inner = this.inner;
    const store: Store = {
      models: this.collection(inner.models),
      modelVersions: this.collection(inner.modelVersions),
      procs: this.collection(inner.procs),
      tasks: this.collection(inner.tasks),
      messages: this.collection(inner.messages),
      deliveries: this.collection(inner.deliveries),
      events: this.collection(inner.events),
      packages: this.collection(inner.packages),
      ops: this.collection(inner.ops),
      instances: this.collection(inner.instances),
      startClaims: this.collection(inner.startClaims),
      inbox: this.collection(inner.inbox),
      states: this.collection(inner.states),
      files: this.collection(inner.files),
      // the named queries that delete or claim are writes (StoreQueries: `delete…`, `claim…`)
      queries: this.methods(inner.queries, Object.keys(inner.queries), (name) => name.startsWith('delete') || name.startsWith('claim')),
      backend: inner.backend,
      claimProcesses: (...args) => this.guard(() => inner.claimProcesses(...args), true),
      fenceProcesses: (...args) => this.guard(() => inner.fenceProcesses(...args), false),
      batch: (fn) => this.guard(() => inner.batch(fn), true),
      // the store writer's batches (SQLite: on the store's write thread)
      writeOnlyBatch: inner.writeOnlyBatch ? (fn, guard) => this.guard(() => inner.writeOnlyBatch!(fn, guard), true) : undefined,
      // the file stays for the next engine; the simulation closes the real store itself
      close: async () => undefined,
    };
    return store;
  }
}
