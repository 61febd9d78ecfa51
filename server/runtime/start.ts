/**
 * Process start (spec 2.13 with 5.12, 5.13): pid rules, input merge and `inputs_schema`, then the
 * root task is created and queued. Nothing is created when a check fails; an archived model starts
 * no process, except as the subflow of a running one (work already under way). A start from outside
 * (not a subflow child) is refused with `engine.busy` while the store writer is saturated.
 */
import type { Runtime } from './runtime-types.ts';
import type { ParentRef } from '../engine/context.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Models } from './models.ts';
import { Process, type StartKey } from '../engine/process.ts';
import { validateSchema } from '../engine/schemas.ts';
import { checkWorkdirPid, createWorkdir, removeWorkdir, RESERVED_OWNER_KEY, type OwnerScope } from '../engine/owner-scope.ts';
import { PID_LENGTH } from '../engine/model/ids.ts';
import { newControl, rerunStep } from '../engine/control.ts';

/** Checks an external pid (spec 5.13): non-empty, no store key separator, no control characters. */
export function checkPid(pid: unknown): string {
  if (typeof pid !== 'string' || pid.length === 0) throw new ActError('process.invalid_pid', 'option pid must be a non-empty string');
  if (pid.includes(':')) throw new ActError('process.invalid_pid', `pid '${pid}' must not contain ':' (the store key separator)`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(pid)) throw new ActError('process.invalid_pid', 'pid must not contain control characters');
  if (pid.length > 200) throw new ActError('process.invalid_pid', 'pid must be at most 200 characters');
  return pid;
}

/** The process a start re-runs (its pid, model version and source) and the step it starts from. */
export interface Rerun {
  pid: string;
  ver: number;
  source: string;
  from: string;
}

export class Starter {
  /** Pids claimed by starts in flight, so two concurrent starts cannot take the same pid. */
  private readonly claimed = new Set<string>();

  constructor(
    private readonly rt: Runtime,
    private readonly models: Models,
  ) {}

  /**
   * `startKey` (start-keys.ts) is written with the process row, in the same transaction. `rerun`:
   * the process re-runs another from one of its steps, on the model version that one ran
   * (engine/control.ts).
   */
  async start(mid: string, options: Vars = {}, parent: ParentRef | null = null, scope: OwnerScope | null = null, startKey: StartKey | null = null, rerun: Rerun | null = null): Promise<Process> {
    const rt = this.rt;
    // a child is part of its parent's running work: never refused
    if (!parent) rt.writer.admit();
    if (Object.hasOwn(options, RESERVED_OWNER_KEY)) {
      throw new ActError('inputs.invalid', `start option '${RESERVED_OWNER_KEY}' is reserved: the owner comes from the server, not from start options`);
    }
    // A subflow child runs with its parent's authority.
    const owner = scope ?? (parent ? (rt.procs.get(parent.pid)?.owner ?? null) : null);
    const workdirRoot = owner?.workdirRoot ?? rt.config.workdirRoot;
    const pid = options.pid !== undefined ? checkPid(options.pid) : rt.newId(PID_LENGTH);
    if (workdirRoot) checkWorkdirPid(pid);
    if (this.claimed.has(pid) || rt.procs.has(pid)) {
      throw new ActError('process.duplicate_pid', `proc_id(${pid}) is duplicated in running process list`);
    }
    this.claimed.add(pid);
    try {
      // A pid the caller chose may be stored already; a generated one (its time and 12 random characters, ~71 bits) is not.
      // Where the write itself checks (a fenced store: the start's row must not exist), the
      // process is admitted only once that write went through; elsewhere it is looked up first.
      const checkedByWrite = options.pid !== undefined && rt.writer.checksFreshPids;
      if (options.pid !== undefined && !checkedByWrite && (await rt.store.procs.exists(pid))) {
        throw new ActError('process.duplicate_pid', `proc_id(${pid}) is duplicated: a process with this pid is stored`);
      }
      const latest = rerun ? null : await this.models.latest(mid);
      const model = latest ?? this.models.snapshot(mid, rerun!.ver, rerun!.source);
      if (rerun) rerunStep(model.tree, rerun.from);
      // an archived model starts nothing new; a running process's subflow call is work under way
      if (latest?.archived && !parent) throw new ActError('model.archived', `model '${mid}' is archived: it starts no new runs until an admin un-archives it`);
      const { pid: _pid, ...rest } = options;
      const inputs: Vars = { ...model.workflow.inputs, ...rest };
      if (typeof options.uid === 'string') inputs.$initiator = options.uid;
      this.rt.expressions.checkSize('the start inputs', inputs);
      const schema = model.workflow.inputs_schema;
      if (schema && Object.keys(schema).length > 0) {
        const problems = validateSchema(schema, inputs);
        if (problems) throw new ActError('inputs.invalid', `model(${mid}) inputs validation error: ${problems}`);
      }
      const proc = new Process(pid, model.workflow, model.source, model.tree, parent?.pid ?? null, parent?.tid ?? null);
      proc.created = rt.clock.now();
      proc.owner = owner;
      proc.startKey = startKey;
      if (rerun) proc.control = { ...newControl(), rerunOf: { pid: rerun.pid, from: rerun.from } };
      // breakpoints set for every new run of the version (Models.setBreakpoints)
      else if (latest && latest.breakpoints.length > 0) proc.control = { ...newControl(), breakpoints: [...latest.breakpoints] };
      if (workdirRoot) proc.workdir = createWorkdir(workdirRoot, pid);
      const root = rt.tasks.createTask(proc, model.tree.root, null, null);
      root.data = { ...inputs };
      root.inputs = { ...inputs };
      rt.tasks.markProcDirty(proc);
      if (options.pid === undefined) rt.batch.markNewPid(proc);
      // Admission (spec 5.5): beyond `cache_cap` the process is parked — its rows stay in state
      // `none` until a slot frees; running processes are never evicted to make room. A subflow
      // child is part of its resident parent's work and always starts: parked, it could wait for
      // a slot that only its own parent would free.
      const run = (): boolean => {
        rt.procs.set(pid, proc);
        return rt.executions.schedule(proc, root);
      };
      const resident = (): boolean => parent !== null || rt.residents.activeCount() < rt.config.cacheCap;
      const admit = (): void => {
        if (resident()) run();
        else rt.residents.park(pid, run);
      };
      // The process row and its root task (or its overflow record) are durable before the start
      // is reported (spec 5.2); a start whose rows could not be written is undone. A process that
      // runs now writes them with its first turn (job-batch.ts), one batch for both — unless its
      // lane is held by user code, which the start is not made to wait for.
      let written: Promise<void>;
      if (checkedByWrite) {
        rt.batch.markFresh(proc);
        written = rt.batch.flush();
      } else if (resident() && !rt.jobs.queue.isHeld(pid)) {
        written = rt.batch.awaitFirstTurn(proc);
        if (!run()) {
          // the lane refused the execution (the outbox holds it): no turn will write the rows
          rt.batch.release(proc);
          void rt.batch.flush();
        }
      } else {
        admit();
        written = rt.batch.flush();
      }
      try {
        await written;
      } catch (err) {
        proc.abandoned = true;
        rt.residents.unpark(pid);
        if (rt.procs.get(pid) === proc) rt.procs.delete(pid);
        removeWorkdir(proc.workdir);
        if (ActError.is(err) && err.code === 'process.duplicate_pid') throw err;
        throw new ActError('internal', `process '${pid}' could not be written: ${errorMessage(err)}`);
      }
      if (checkedByWrite) admit();
      rt.fault('start:written');
      return proc;
    } finally {
      this.claimed.delete(pid);
    }
  }
}
