/**
 * Several engine instances on one database (issue 3, item 9).
 *
 * Every engine is an *instance* with a row in `instances` (id, host, pid, `lease_until`). A process
 * row's `owner` names the instance that runs it; only the owner holds it in memory and applies
 * actions to it. An instance row moves through:
 *
 *   live    — `lease_until >= now`: the instance renews it on every tick and on a timer
 *             (every leaseMs / 3), so a long tick interval cannot let it lapse;
 *   lapsed  — the instance crashed or hangs: nobody renews it, `lease_until` passes;
 *   taken over — on its next tick every other instance claims the lapsed instance's unfinished
 *             processes (`Store.claimProcesses`: one atomic UPDATE, `FOR UPDATE SKIP LOCKED` on
 *             PostgreSQL, so each row goes to exactly one claimant), loads them and continues
 *             them like after a restart (recover.ts `fillSlots`, with their open action records).
 *
 * `close()` deletes the row (its processes are claimable at once). A restarted instance gets a new
 * id and claims its old processes the same way once the old lease lapsed — at once when the old
 * instance's process is gone, which the instance lock tells (checked when an instance registers):
 * on PostgreSQL every instance holds a session-level advisory lock named by its id on a
 * connection of its own (pg-instance-lock.ts in server/store), which the database drops when that
 * connection ends — when the process dies, however it dies. A registering instance removes the
 * rows of instances whose lock no session holds, wherever they ran; no pid is asked whether it is
 * alive, so a reused pid (PID 1 in a container) cannot make a dead instance look alive. The lock
 * also refuses a second live engine with the same instance id. A start claim (start-keys.ts) is
 * waited for while its instance's lock is held, and taken over once it is free.
 *
 * Only PostgreSQL runs several instances. SQLite (one writer, one host) and the memory store are
 * single-instance. On SQLite an instance first takes the store's engine lock, which the operating
 * system drops when the holder's process dies (engine-lock.ts in server/store): opening refuses
 * while another engine holds it, and a crash never blocks the restart — no pid is asked whether
 * it is alive, so PID 1 in a container or a reused pid cannot fool it. Then the rows of earlier
 * instances are removed, so the new one takes every process over at once.
 */
import os from 'node:os';
import type { Runtime } from './runtime-types.ts';
import { ActError } from '../engine/errors.ts';
import { multiInstance } from './relay-records.ts';
import type { InstanceRow } from '../store/contract/types.ts';

/** How many lease lengths the row of a lapsed instance stays visible. */
const LAPSED_KEPT = 10;

export const isLive = (row: InstanceRow | undefined, now: number): row is InstanceRow => row !== undefined && row.lease_until >= now;

export class InstanceLease {
  private readonly started: number;

  constructor(
    private readonly rt: Runtime,
    readonly id: string,
    readonly leaseMs: number,
  ) {
    this.started = rt.clock.now();
  }

  private row(now: number): InstanceRow {
    return { id: this.id, host: os.hostname(), pid: process.pid, lease_until: now + this.leaseMs, started: this.started };
  }

  /**
   * Writes this instance's row. On a single-instance store first makes sure no other engine uses
   * it — on SQLite by taking the store's engine lock (refused with ActError `config.invalid` while
   * another engine holds it) — then removes the rows of earlier instances: with the lock held,
   * whatever they say about their pid or lease, their processes are gone. On a shared store first
   * takes this instance's lock (refused while a live engine has this id), then removes the rows
   * of instances whose lock is free: their processes are gone.
   */
  async register(): Promise<void> {
    const store = this.rt.store;
    const now = this.rt.clock.now();
    await this.lockSingleEngine(now);
    try {
      await this.lockInstance();
      const others = (await store.instances.query()).rows.filter((row) => row.id !== this.id);
      const gone = new Set<string>();
      for (const row of others) if (!multiInstance(store) || !(await this.processAlive(row.id))) gone.add(row.id);
      await store.batch(async (tx) => {
        for (const id of gone) await tx.instances.delete(id);
        await tx.instances.upsert(this.row(now));
      });
    } catch (err) {
      await store.releaseEngineLock?.();
      await store.releaseInstanceLock?.();
      throw err;
    }
    this.leaseUntil = now + this.leaseMs;
  }

  /** Shared store: takes this instance's lock (the store's, pg-instance-lock.ts) or refuses. */
  private async lockInstance(): Promise<void> {
    const store = this.rt.store;
    if (!multiInstance(store) || !store.acquireInstanceLock) return;
    if (await store.acquireInstanceLock(this.id, (message) => this.rt.log.warn(message))) return;
    throw new ActError('config.invalid', `engine instance id '${this.id}' is in use by a running engine on this database; give each instance its own id (or none: a random one is made)`);
  }

  /** Whether the process of instance `id` is alive as far as its instance lock tells (true where no lock is kept). */
  private async processAlive(id: string): Promise<boolean> {
    const held = this.rt.store.instanceLockHeld;
    return held ? held.call(this.rt.store, id) : true;
  }

  /** SQLite: takes the engine lock (the store's, engine-lock.ts) or refuses, naming the engine that holds it. */
  private async lockSingleEngine(now: number): Promise<void> {
    const store = this.rt.store;
    if (multiInstance(store) || !store.acquireEngineLock || (await store.acquireEngineLock())) return;
    const live = (await store.instances.query()).rows.find((row) => row.id !== this.id && isLive(row, now));
    const holder = live ? `engine instance ${live.id} (pid ${live.pid} on host ${live.host})` : 'another engine (it holds the database\'s engine lock)';
    throw new ActError('config.invalid', `this SQLite database is in use by ${holder}; SQLite supports one engine at a time: stop it, or use PostgreSQL for several instances`);
  }

  /** Until when the lease ran as last written (0 before the first write). */
  private leaseUntil = 0;

  /**
   * Extends the lease by leaseMs from now. When the lease had already lapsed (this instance hung
   * or lost the store for longer than leaseMs), others may have taken processes over: those are
   * dropped from memory (their rows name another owner now): the `leaseLost` event, then
   * `processesLost`. The write fence catches any write that races this check.
   */
  async renew(): Promise<void> {
    const now = this.rt.clock.now();
    const before = this.leaseUntil;
    const lapsed = before > 0 && before < now;
    const row = this.row(now);
    await this.rt.store.instances.upsert(row);
    this.leaseUntil = row.lease_until;
    if (lapsed && multiInstance(this.rt.store)) {
      this.rt.events.emit('leaseLost', { instance: this.id, leaseUntil: before, renewedAt: now });
      const lost = await this.rt.store.fenceProcesses(this.id, [...this.rt.procs.keys()]);
      this.rt.residents.release(lost, 'lease');
    }
  }

  /** Removes the row (this instance's processes can be claimed at once) and gives the engine and instance locks back. */
  async release(): Promise<void> {
    try {
      await this.rt.store.instances.delete(this.id);
    } finally {
      await this.rt.store.releaseEngineLock?.();
      await this.rt.store.releaseInstanceLock?.();
    }
  }

  /**
   * Whether this instance leads the shared timers (schedule triggers, the sweeper): the live
   * instance that started first (then the smallest id). One leader at a time keeps a due schedule
   * from starting once per instance; when the leader's lease lapses the next one takes over.
   */
  async isLeader(): Promise<boolean> {
    if (!multiInstance(this.rt.store)) return true;
    const now = this.rt.clock.now();
    const live = (await this.rt.store.instances.query()).rows.filter((row) => row.id === this.id || row.lease_until >= now);
    live.sort((a, b) => a.started - b.started || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return live[0]?.id === this.id;
  }

  /**
   * Deletes the rows of instances whose lease lapsed more than LAPSED_KEPT leases ago (their
   * processes stay claimable: a claim treats an owner without a row like a lapsed one). A hung
   * instance that comes back writes its row again on its next renewal; the write fence keeps it
   * away from processes taken over meanwhile.
   */
  async sweepLapsed(): Promise<number> {
    const before = this.rt.clock.now() - LAPSED_KEPT * this.leaseMs;
    return this.rt.store.queries.deleteInstancesLapsedBefore(before);
  }

  /**
   * Whether instance `id` (not this one) may still be at work, say at a start it claimed
   * (start-keys.ts): it has a row, and its process is alive — its instance lock is held, however
   * long ago it renewed its lease (a hung instance that wakes up goes on writing); on a store
   * without instance locks, its lease is live. A row is gone once a registering instance found
   * its lock free, or the leader swept it LAPSED_KEPT leases after it lapsed.
   */
  async mayBeRunning(id: string): Promise<boolean> {
    if (id === this.id) return false;
    const row = await this.rt.store.instances.find(id);
    if (!row) return false;
    return this.rt.store.instanceLockHeld ? this.processAlive(id) : isLive(row, this.rt.clock.now());
  }

  /** The live instance other than this one that owns a process row, if any. */
  async liveOwner(owner: string | null): Promise<InstanceRow | undefined> {
    if (!owner || owner === this.id) return undefined;
    const row = await this.rt.store.instances.find(owner);
    return isLive(row, this.rt.clock.now()) ? row : undefined;
  }
}
