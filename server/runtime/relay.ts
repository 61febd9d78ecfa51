/**
 * Work for a process that another engine instance runs (several instances on one PostgreSQL
 * database, instances.ts). Only a process's owner may change it, so work that arises elsewhere is
 * written as a *relay record* — an outbox row of type `relay` addressed to the pid:
 *   `action:<name>`   a client action sent to an instance that does not run the process;
 *   `subflow:return`  a child that ended, for its parent's subflow act (options: ChildEnd);
 *   `subflow:abort`   a parent that ended, for its running child.
 *
 * A record moves pending → done; `options.$result` then says `{ ok: true }` or
 * `{ ok: false, code, message }` (the refusal). The owner applies the pending records of its
 * resident processes in their lanes and closes each in the same batch as its effects, so a crash
 * re-applies it; a record stays pending while its process is not loaded anywhere. Records are
 * picked up on every tick and at once when the store wakes the instance (NOTIFY `acts_relay`,
 * sent when a batch with a new record commits). The sender of an action waits until its record is
 * done (woken by NOTIFY `acts_relay_done`, polling as a fallback) and hears the result.
 *
 * State of the Relay object: `inFlight` — ids of records queued in a lane here and not yet seen
 * done (never applied twice); `waiters` — forwarded actions waiting for their record to close;
 * one pass at a time (`passing`, with `again` when a wake-up arrives during a pass).
 */
import { actionJob } from './action-job.ts';
import type { Runtime } from './runtime-types.ts';
import { isUnfinishedName } from '../../vocab/states.ts';
import { ActError, errorMessage, type ErrorCode } from '../engine/errors.ts';
import { abortProcess } from '../engine/finish.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import type { InstanceRow, OpRow } from '../store/contract/types.ts';
import { applyChildEnd } from '../engine/subflow.ts';
import type { ActionContinuation } from '../engine/actions.ts';
import type { ChildEnd } from '../engine/context.ts';
import { relayRecord, RELAY_DONE_TOPIC, RELAY_TOPIC } from './relay-records.ts';

/** Records handled per pass (the rest wait for the next one). */
const PASS_LIMIT = 500;
/** How often a waiting sender looks at its record when no wake-up came, ms. */
const POLL_MS = 250;

export type RelayResult = { ok: true } | { ok: false; code: ErrorCode; message: string };

function resultOf(op: OpRow): RelayResult | undefined {
  const result = (op.options as Vars | null)?.$result as RelayResult | undefined;
  return result && typeof result === 'object' ? result : undefined;
}

/**
 * Applies a record of work other than an action to its (resident) process; throws the refusal.
 * Runs inside the process's job. `deferred`: a subflow return waits for a code worker (see
 * applyChildEnd) and `continuation` applies it again.
 */
function apply(rt: Runtime, proc: Process, op: OpRow, continuation: ActionContinuation): 'applied' | 'deferred' {
  const event = op.event ?? '';
  const options = (op.options ?? {}) as Vars;
  if (event === 'subflow:return') {
    const act = proc.tasks.get(op.tid);
    if (!act) throw new ActError('task.not_found', `cannot find task '${op.tid}' in process '${proc.pid}'`);
    return applyChildEnd(rt.port, proc, act, options as unknown as ChildEnd, continuation);
  }
  if (event === 'subflow:abort') {
    if (!proc.finished && proc.root) abortProcess(rt.port, proc, proc.root);
    return 'applied';
  }
  throw new ActError('action.unknown', `unknown relay record '${event}'`);
}

export class Relay {
  private readonly inFlight = new Set<string>();
  private readonly waiters = new Map<string, () => void>();
  private passing: Promise<void> | null = null;
  private again = false;
  private unlisten: Array<() => Promise<void>> = [];

  constructor(private readonly rt: Runtime) {}

  /** Subscribes to the store's wake-ups (when it has them). */
  async start(): Promise<void> {
    const listen = this.rt.store.listen;
    if (!listen) return;
    this.unlisten.push(await listen.call(this.rt.store, RELAY_TOPIC, () => void this.pass()));
    this.unlisten.push(
      await listen.call(this.rt.store, RELAY_DONE_TOPIC, (payload) => {
        for (const id of payload.split(',')) this.waiters.get(id)?.();
      }),
    );
  }

  async stop(): Promise<void> {
    for (const off of this.unlisten.splice(0)) await off().catch(() => undefined);
    for (const wake of this.waiters.values()) wake();
  }

  /** Applies the pending records of processes resident here; one pass at a time. */
  pass(): Promise<void> {
    if (this.passing) {
      this.again = true;
      return this.passing;
    }
    this.passing = (async () => {
      do {
        this.again = false;
        await this.applyPending();
      } while (this.again);
    })()
      .catch((err) => this.rt.log.error(`applying relayed work failed: ${errorMessage(err)}`))
      .finally(() => {
        this.passing = null;
      });
    return this.passing;
  }

  private async applyPending(): Promise<void> {
    const rt = this.rt;
    const records = await rt.store.queries.pendingRelays(PASS_LIMIT);
    const pending = new Set(records.map((op) => op.id));
    for (const id of this.inFlight) if (!pending.has(id)) this.inFlight.delete(id);
    for (const op of records) {
      if (this.inFlight.has(op.id)) continue;
      const proc = rt.procs.get(op.pid);
      if (proc) {
        this.inFlight.add(op.id);
        rt.jobs.job(proc.pid, `relay ${op.event} ${op.tid}`, this.recordJob(proc, op));
      } else {
        await this.settleAbsent(op);
      }
    }
  }

  /**
   * The job that applies a record and closes it with its result. An action whose act's outputs
   * went to a code worker closes when it is applied again (action-job.ts); if the process leaves
   * meanwhile, the record stays pending for its next owner.
   */
  private recordJob(proc: Process, op: OpRow): () => void {
    const rt = this.rt;
    const done = (err: unknown): void => {
      const result: RelayResult = err === undefined ? { ok: true } : { ok: false, code: ActError.is(err) ? err.code : 'internal', message: errorMessage(err) };
      rt.outbox.write({ ...op, status: 'done', options: { ...((op.options ?? {}) as Vars), $result: result }, update_time: rt.clock.now() });
    };
    const event = op.event ?? '';
    if (event.startsWith('action:')) {
      const action = { tid: op.tid, action: event.slice('action:'.length), options: (op.options ?? {}) as Vars };
      return actionJob(rt, proc, action, done, () => this.inFlight.delete(op.id));
    }
    // like an action, a subflow return that waits for a code worker closes its record once applied
    const run = (): void => {
      let error: unknown;
      try {
        if (apply(rt, proc, op, { retry: run, gone: () => this.inFlight.delete(op.id) }) === 'deferred') return;
      } catch (err) {
        error = err ?? new Error('the relayed work failed');
      }
      done(error);
    };
    return run;
  }

  /** A record whose process is not resident here: closed when it can never apply, else left. */
  private async settleAbsent(op: OpRow): Promise<void> {
    const rt = this.rt;
    const row = await rt.store.procs.find(op.pid);
    let refusal: RelayResult | undefined;
    if (!row) refusal = { ok: false, code: 'process.not_found', message: `cannot find process '${op.pid}'` };
    else if (!isUnfinishedName(row.state)) refusal = { ok: false, code: 'action.refused', message: `process '${op.pid}' is already ${row.state}` };
    else if (row.owner === rt.config.instanceId && row.state === 'none' && op.event?.startsWith('action:')) {
      refusal = { ok: false, code: 'action.refused', message: `process '${op.pid}' is parked, waiting for a free slot` };
    }
    if (!refusal) return;
    // the owner may have applied and closed the record since the pass read it, in the batch that
    // ended the process read above: read after that row, the record shows it, and keeps its result
    const current = await rt.store.ops.find(op.id);
    if (!current || current.status === 'done') return;
    const closed = { ...op, status: 'done' as const, options: { ...((op.options ?? {}) as Vars), $result: refusal }, update_time: rt.clock.now() };
    await rt.writer.writeBatch(async (tx) => {
      await tx.ops.update(closed);
      await tx.notify?.(RELAY_DONE_TOPIC, op.id);
    });
  }

  /**
   * Sends a client action to the instance that runs the process and waits until it was applied
   * there (resolves) or refused (rejects with its reason). Gives up waiting after `timeoutMs`
   * (`engine.busy`); the record then stays queued and is applied when its owner gets to it.
   */
  async forward(pid: string, tid: string, action: string, options: Vars, owner: InstanceRow, timeoutMs: number): Promise<void> {
    const rt = this.rt;
    const op = relayRecord(rt, pid, tid, `action:${action}`, options);
    let wake = (): void => undefined;
    this.waiters.set(op.id, () => wake());
    try {
      await rt.writer.writeBatch(async (tx) => {
        await tx.ops.create(op);
        await tx.notify?.(RELAY_TOPIC, op.id);
      });
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const row = await rt.store.ops.find(op.id);
        if (!row) throw new ActError('internal', `the relayed action record '${op.id}' disappeared`);
        if (row.status === 'done') {
          const result = resultOf(row);
          if (result && !result.ok) throw new ActError(result.code, result.message);
          return;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      throw new ActError(
        'engine.busy',
        `the ${action} was sent to engine instance ${owner.id} (pid ${owner.pid} on host ${owner.host}), which runs process '${pid}', ` +
          `but it did not confirm within ${Math.round(timeoutMs / 1000)} s; the action stays queued there`,
      );
    } finally {
      this.waiters.delete(op.id);
    }
  }
}
