/**
 * Remote workers (issue 13 item 6): the jobs of external packages (run_as `worker`) and their
 * leases, on the store's delivery rows. Every engine opens a leased ack channel
 * `worker:<package>` per external package, so each `created` act message of the package gets a
 * delivery row written with its job's batch. A delivery's states:
 *
 *   due (created, update_time ≤ now) ──poll──▶ leased (created, update_time = lease end, attempt+1)
 *   leased ──lease lapses (worker died)──▶ due again: the next poll takes it (at least once)
 *   leased ──extend with its lease──▶ leased until later
 *   leased ──its poller went away before the answer was sent──▶ due again, at the earlier attempt
 *   leased ──complete / fail with its lease──▶ the engine's action on the act ──▶ completed
 *   due or leased, the act no longer waiting (timeout, abort, answered) ──a poll meets it──▶ completed
 *
 * A lease names the delivery and its attempt (`retry_times`); every change is one conditional
 * update (StoreQueries.leaseDelivery), so of any number of pollers and answers on any instances
 * sharing the store exactly one wins, and an answer under a lost lease is refused
 * (`worker.lease_lost`). A long poll looks again when this engine publishes a message of a wanted
 * package and at the commit after it, and every RECHECK_MS for those written by other instances.
 */
import { ActError } from '../engine/errors.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Message } from '../engine/messages.ts';
import { and, eq } from '../store/contract/filters.ts';
import type { DeliveryRow } from '../store/contract/types.ts';
import type { ActionRequest } from './action-intake.ts';
import type { Channel, ChannelOptions } from './channels.ts';
import type { Runtime } from './runtime-types.ts';

const WORKER_CHANNEL_PREFIX = 'worker:';
/** The channel id of an external package's deliveries. */
export const workerChannelId = (pkg: string): string => `${WORKER_CHANNEL_PREFIX}${pkg}`;

/** How often a waiting poll looks at the store again (messages of other instances). */
const RECHECK_MS = 1000;
/** Due deliveries one look reads. */
const LOOK_BATCH = 20;

/** One act handed to a worker. */
export interface WorkerJob {
  /** Names the delivery and this attempt; every answer gives it back. */
  lease: string;
  pid: string;
  tid: string;
  package: string;
  /** The act's evaluated params (checked against the package's schema). */
  params: unknown;
  /** The act's inputs (without its params). */
  inputs: Vars;
  /** 1 on the first hand-out, one more after each lapsed lease. */
  attempt: number;
  /** When the lease lapses (ms since the epoch) unless extended. */
  lease_until: number;
}

export interface PollRequest {
  packages: readonly string[];
  waitMs: number;
  leaseMs: number;
  /** Aborted when the poller went away: no job is leased to it (one leased meanwhile is given back). */
  signal?: AbortSignal;
}

interface Waiter {
  packages: ReadonlySet<string>;
  wake: () => void;
}

function leaseOf(row: DeliveryRow): string {
  return `${row.id}.${row.retry_times}`;
}

function parseLease(lease: string): { id: string; attempt: number } {
  const dot = lease.lastIndexOf('.');
  const attempt = Number(lease.slice(dot + 1));
  if (dot <= 0 || !Number.isInteger(attempt) || attempt < 1) throw new ActError('worker.lease_lost', `'${lease}' is not a lease a poll handed out`);
  return { id: lease.slice(0, dot), attempt };
}

export class WorkerJobs {
  private readonly channels = new Map<string, Channel>();
  private readonly waiters = new Set<Waiter>();
  /** Packages with a message since the last commit (their pollers wake at the commit). */
  private readonly heard = new Set<string>();

  constructor(
    private readonly rt: Runtime,
    private readonly act: (request: ActionRequest) => Promise<void>,
    private readonly openChannel: (options: ChannelOptions) => Channel,
    /** Loads external packages other engines registered on the shared store. */
    private readonly refresh: () => Promise<void>,
  ) {
    rt.events.on('committed', () => this.wakeHeard());
  }

  /** Opens the leased channel of an external package (idempotent). */
  open(pkg: string): void {
    if (this.channels.has(pkg)) return;
    const channel = this.openChannel({ id: workerChannelId(pkg), ack: true, leased: true, type: 'act', state: 'created', uses: pkg });
    // the handler may run before or after the batch holding the delivery commits: wake now and at the commit
    channel.onMessage((m: Message) => {
      this.heard.add(m.uses);
      this.wake(new Set([m.uses]));
    });
    this.channels.set(pkg, channel);
  }

  /** Closes the channel of a package no longer external. */
  close(pkg: string): void {
    this.channels.get(pkg)?.close();
    this.channels.delete(pkg);
  }

  /** Leases one due job of `packages`, waiting up to `waitMs` for one; null when none came. */
  async poll(request: PollRequest): Promise<WorkerJob | null> {
    if (request.packages.some((pkg) => !this.rt.registry.isExternal(pkg))) await this.refresh();
    for (const pkg of request.packages) {
      if (!this.rt.registry.isExternal(pkg)) throw new ActError('package.not_external', `package '${pkg}' is not an external package: register it with packages.register before a worker subscribes to it`);
    }
    const deadline = this.rt.clock.now() + request.waitMs;
    const wanted = new Set(request.packages);
    const { signal } = request;
    for (;;) {
      if (signal?.aborted) return null;
      const job = await this.take(request.packages, request.leaseMs);
      if (job && signal?.aborted) {
        await this.giveBack(job);
        return null;
      }
      if (job) return job;
      const left = deadline - this.rt.clock.now();
      if (left <= 0) return null;
      await this.waitForNews(wanted, Math.min(left, RECHECK_MS), signal);
    }
  }

  /** Makes a job leased to a poller that went away due again at once, at its earlier attempt. */
  private async giveBack(job: WorkerJob): Promise<void> {
    const { id } = parseLease(job.lease);
    await this.rt.store.queries.leaseDelivery({ id, was_retry_times: job.attempt, status: 'created', retry_times: job.attempt - 1, update_time: this.rt.clock.now() });
  }

  /** Completes the act of a lease with `outputs` (its data). */
  complete(lease: string, outputs: Vars): Promise<{ pid: string; tid: string }> {
    return this.answer(lease, 'complete', outputs);
  }

  /** Fails the act of a lease with `ecode` (catches see it) and a message. */
  fail(lease: string, ecode: string, message: string): Promise<{ pid: string; tid: string }> {
    return this.answer(lease, 'error', { ecode, message });
  }

  /** Moves a lease's end to `leaseMs` from now; refused when the lease was lost. */
  async extend(lease: string, leaseMs: number): Promise<{ lease_until: number }> {
    const row = await this.held(lease);
    const until = this.rt.clock.now() + leaseMs;
    if (!(await this.rt.store.queries.leaseDelivery({ id: row.id, was_retry_times: row.retry_times, status: 'created', retry_times: row.retry_times, update_time: until }))) {
      throw lost(lease);
    }
    return { lease_until: until };
  }

  private async answer(lease: string, action: 'complete' | 'error', options: Vars): Promise<{ pid: string; tid: string }> {
    const row = await this.held(lease);
    const { store } = this.rt;
    const settle = () => store.queries.leaseDelivery({ id: row.id, was_retry_times: row.retry_times, status: 'completed', retry_times: row.retry_times, update_time: this.rt.clock.now() });
    try {
      await this.act({ pid: row.pid, tid: row.tid, action, options });
    } catch (err) {
      // an act that no longer waits is done with; a refused answer (bad outputs) keeps the lease
      const task = await store.tasks.find(`${row.pid}:${row.tid}`);
      if (task?.state !== 'interrupted') await settle();
      throw err;
    }
    await settle();
    return { pid: row.pid, tid: row.tid };
  }

  /** The delivery a lease holds, still at its attempt; `worker.lease_lost` otherwise. */
  private async held(lease: string): Promise<DeliveryRow> {
    const { id, attempt } = parseLease(lease);
    const row = await this.rt.store.deliveries.find(id);
    if (!row || !row.chan_id.startsWith(WORKER_CHANNEL_PREFIX) || row.status !== 'created' || row.retry_times !== attempt) throw lost(lease);
    return row;
  }

  private async take(packages: readonly string[], leaseMs: number): Promise<WorkerJob | null> {
    const { store } = this.rt;
    const now = this.rt.clock.now();
    const due = await store.queries.dueDeliveries(packages.map(workerChannelId), now, LOOK_BATCH);
    // pollers at the same time start at different rows of the same look, so they seldom race for one
    const from = Math.floor(Math.random() * due.length);
    for (const row of [...due.slice(from), ...due.slice(0, from)]) {
      const [message, task] = await Promise.all([store.messages.find(row.msg_id), store.tasks.find(`${row.pid}:${row.tid}`)]);
      if (!message || task?.state !== 'interrupted') {
        await store.queries.leaseDelivery({ id: row.id, was_retry_times: row.retry_times, status: 'completed', retry_times: row.retry_times, update_time: now });
        continue;
      }
      const leased = { id: row.id, was_retry_times: row.retry_times, status: 'created' as const, retry_times: row.retry_times + 1, update_time: now + leaseMs };
      if (!(await store.queries.leaseDelivery(leased))) continue;
      const { params, ...inputs } = message.inputs;
      return { lease: leaseOf({ ...row, retry_times: leased.retry_times }), pid: row.pid, tid: row.tid, package: message.uses, params: params ?? null, inputs, attempt: leased.retry_times, lease_until: leased.update_time };
    }
    return null;
  }

  private waitForNews(packages: ReadonlySet<string>, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        packages,
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.wake);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, ms);
      signal?.addEventListener('abort', waiter.wake);
      this.waiters.add(waiter);
    });
  }

  private wakeHeard(): void {
    if (this.heard.size === 0) return;
    this.wake(this.heard);
    this.heard.clear();
  }

  private wake(packages: ReadonlySet<string>): void {
    for (const waiter of [...this.waiters]) {
      if ([...packages].some((pkg) => waiter.packages.has(pkg))) waiter.wake();
    }
  }

  /** Wakes every waiting poll (the engine closes). */
  closeAll(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
    for (const pkg of [...this.channels.keys()]) this.close(pkg);
  }
}

/**
 * Completes the worker deliveries still open of a finished process (its external acts ended
 * without a worker's answer: aborted, timed out), so the sweeper may remove it; returns how many.
 */
export async function settleWorkerDeliveries(rt: Runtime, pid: string, now: number): Promise<number> {
  const open = await rt.store.deliveries.query({ filter: and(eq('pid', pid), eq('status', 'created')) });
  let settled = 0;
  for (const row of open.rows) {
    if (!row.chan_id.startsWith(WORKER_CHANNEL_PREFIX)) continue;
    if (await rt.store.queries.leaseDelivery({ id: row.id, was_retry_times: row.retry_times, status: 'completed', retry_times: row.retry_times, update_time: now })) settled++;
  }
  return settled;
}

function lost(lease: string): ActError {
  return new ActError('worker.lease_lost', `the lease '${lease}' was lost (it lapsed and another worker took the act, or the act was answered or ended): drop this job's result`);
}
