/**
 * Where client actions come in (spec 3, 5.2). An action for a process resident here is first
 * recorded in the outbox — an accepted action survives a crash before it was applied — then
 * applied in the process's lane; the record is closed in the same batch as the effects, and the
 * caller hears the outcome once that batch is written. An action for a process another instance
 * runs is relayed there (relay.ts). When the write fence finds the process was taken over while
 * the action was applied here, the record is closed and the action goes to the new owner.
 * With code workers, an action whose act's outputs must be evaluated on a worker is applied again
 * (in the held lane) once the worker answered; the record stays open until then.
 * While the store writer is saturated a new action is refused with `engine.busy` (nothing recorded).
 * While the engine recovers in the background, an action for an unfinished process it has not
 * loaded yet waits for recovery to end (then goes on as usual), at most the relay timeout; then it
 * is refused with `engine.busy` (`details.reason: 'recovering'`, retryable; nothing recorded).
 */
import { actionJob } from './action-job.ts';
import type { Runtime } from './runtime-types.ts';
import { isUnfinishedName } from '../../vocab/states.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import type { RecoveryHealth } from './engine-health.ts';
import type { InstanceLease } from './instances.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Relay } from './relay.ts';
import type { OpRow } from '../store/contract/types.ts';
import { isVarsObject } from '../engine/vars.ts';
import { ROW_ID_LENGTH } from '../engine/model/ids.ts';

export interface ActionRequest {
  pid: string;
  tid: string;
  action: string;
  options?: Vars;
}


/** Recovery running in the background: its progress, and a promise that settles when it ended. */
export interface RecoveryRun {
  health: RecoveryHealth;
  done: Promise<unknown>;
}

export class ActionIntake {
  constructor(
    private readonly rt: Runtime,
    private readonly lease: InstanceLease,
    private readonly relay: Relay,
    private readonly relayTimeoutMs: number,
    private readonly recovering: () => RecoveryRun | null,
  ) {}

  async take(request: ActionRequest): Promise<void> {
    this.rt.writer.admit();
    return this.accept(request);
  }

  private async accept(request: ActionRequest): Promise<void> {
    const rt = this.rt;
    const { pid, tid, action } = request;
    const options = request.options ?? {};
    if (!isVarsObject(options)) throw new ActError('action.invalid_options', 'action options must be an object');
    rt.expressions.checkSize(`the options of the ${action} action`, options);
    const proc = rt.procs.get(pid);
    if (!proc) {
      await rt.writer.flush();
      const row = await rt.store.procs.find(pid);
      if (!row) throw new ActError('process.not_found', `cannot find process '${pid}'`);
      const owner = isUnfinishedName(row.state) ? await this.lease.liveOwner(row.owner) : undefined;
      if (owner) return this.relay.forward(pid, tid, action, options, owner, this.relayTimeoutMs);
      const recovery = this.recovering();
      if (recovery && isUnfinishedName(row.state)) {
        await this.untilRecovered(pid, recovery);
        return this.accept(request);
      }
      const why = row.state === 'none' ? 'parked, waiting for a free slot' : `already ${row.state}`;
      throw new ActError('action.refused', `cannot ${action} in process '${pid}': it is ${why}`);
    }
    if (!rt.jobs.queue.hasRoom(pid)) {
      throw new ActError('engine.busy', `the engine is at its queue limit for process '${pid}'; try again shortly`);
    }
    const now = rt.clock.now();
    const op: OpRow = { id: rt.newId(ROW_ID_LENGTH), type: 'action', pid, tid, event: action, options, status: 'pending', create_time: now, update_time: now };
    try {
      // a part of the writer's next transaction (not a standalone write, which no other write
      // joins); a fresh id, so the upsert inserts
      await rt.writer.writeBatch((tx) => tx.ops.upsert(op));
    } catch (err) {
      throw new ActError('internal', `the action could not be recorded: ${errorMessage(err)}`);
    }
    rt.fault('action:recorded');
    let committed: Promise<void> = Promise.resolve();
    const applied = new Promise<void>((resolve, reject) => {
      // the record stays open if the process leaves: whoever loads it next applies the action (recover.ts)
      const gone = (): void => reject(new ActError('engine.busy', `process '${pid}' left this engine while the ${action} action waited for its outputs; send the action again`, { retryable: true }));
      const done = (error: unknown): void => {
        if (error === undefined) resolve();
        else reject(error);
        rt.outbox.close(op);
        // the turn's batch, after the jobs this one queued in it: its whole effect at once
        committed = rt.batch.nextFlush();
      };
      rt.jobs.job(pid, `action ${action} ${tid}`, actionJob(rt, proc, { tid, action, options }, done, gone));
    });
    // The caller hears of the outcome once the action's effects (or its closed record) are written.
    await applied.finally(() => committed.catch(() => undefined));
    let takenOver = false;
    await committed.catch((err) => {
      if (!ActError.is(err) || err.code !== 'process.elsewhere') throw new ActError('internal', `the action's effects could not be written: ${errorMessage(err)}`);
      takenOver = true;
    });
    if (takenOver) {
      await rt.writer.write(() => rt.store.ops.update({ ...op, status: 'done', update_time: rt.clock.now() }));
      return this.accept(request);
    }
    rt.fault('action:applied');
  }

  /** Waits for recovery to end, at most the relay timeout (then `engine.busy`, reason `recovering`). */
  private async untilRecovered(pid: string, recovery: RecoveryRun): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), this.relayTimeoutMs)));
    const outcome = await Promise.race([recovery.done.then(() => 'done' as const, () => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'done') return;
    const { loaded, total } = recovery.health;
    throw new ActError('engine.busy', `process '${pid}' is not loaded yet: the engine is still recovering its processes (${loaded} of ${total} loaded); try again shortly`, {
      reason: 'recovering',
      loaded,
      total,
      retryable: true,
    });
  }
}
