/**
 * Continuing after a restart (spec 5.3 `resume`): unfinished processes are rebuilt from their rows
 * and the work that was in flight is dispatched again. Because every job's writes land in one
 * batch, the store always holds a state between two jobs, so:
 * - tasks in `none`/`ready` were queued but not run → run them;
 * - a `running` act without children is re-run (a subflow act is re-linked to its child instead);
 * - a `running` parent whose children are all done is reviewed (its review waited for a code
 *   worker when the engine stopped), as is a step with a pending branch;
 * - interrupted, pending and running parents wait for their clients and children, as before;
 * - timeout rules of open tasks are armed again (those that fired stay fired).
 * A process whose rows cannot be rebuilt (its model no longer parses, a row is corrupt) ends in
 * `error` with the reason; the others go on.
 * Only processes this engine instance owns are loaded: unowned ones and those of instances whose
 * lease lapsed are claimed first (instances.ts), so the same code restarts, fills free slots and
 * takes over a crashed instance's processes.
 */
import { actionJob } from './action-job.ts';
import type { Core } from './core.ts';
import type { Vars } from '../engine/model/types.ts';
import { errorMessage } from '../engine/errors.ts';
import type { Models } from './models.ts';
import type { Process } from '../engine/process.ts';
import { rerunIfCutOff, restoreProcess, reviewIfCutOff } from './restore.ts';
import type { OpRow, ProcRow, TaskRow } from '../store/contract/types.ts';
import { startSubflow } from '../engine/subflow.ts';
import { returnToParent } from './subflow-routing.ts';
import { guard, proceed, taskJob } from '../engine/flow.ts';
import { abortProcess } from '../engine/finish.ts';
import type { Task } from '../engine/task.ts';
import { IN_FLIGHT_PROC_STATES, isTerminalName, isUnfinishedName, UNFINISHED_PROC_STATES } from '../../vocab/states.ts';
import { asAct } from '../engine/tree/node.ts';
import { paramsOf } from '../engine/task-data.ts';
import { multiInstance } from './relay-records.ts';
import { resumeEndHooks } from './end-hooks.ts';

export interface RecoverReport {
  processes: number;
  /** Recorded actions applied again. */
  actions: number;
  dispatched: number;
  failed: Array<{ pid: string; message: string }>;
}


/**
 * How far a fill got: `total` processes were taken to be loaded so far (each state group adds its
 * rows when it starts; subflow children that come along add theirs), `loaded` of them are in
 * memory. Called after every chunk of processes loaded.
 */
export type OnLoaded = (progress: { loaded: number; total: number }) => void;

export async function load(core: Core, models: Models, row: ProcRow, tasks?: TaskRow[]): Promise<Process> {
  const rows = tasks ?? (await core.store.queries.tasksOf([row.id]));
  return restoreProcess(row, rows, models.snapshot(row.mid, row.model_ver, row.model));
}

/** Processes whose task rows one query reads when many are loaded at once. */
const TASKS_PER_QUERY = 200;

/** The task rows of many processes, a few queries instead of one per process (creation order kept). */
async function tasksByPid(core: Core, pids: string[]): Promise<Map<string, TaskRow[]>> {
  const byPid = new Map<string, TaskRow[]>(pids.map((pid) => [pid, []]));
  for (let i = 0; i < pids.length; i += TASKS_PER_QUERY) {
    const chunk = pids.slice(i, i + TASKS_PER_QUERY);
    for (const row of await core.store.queries.tasksOf(chunk)) byPid.get(row.pid)?.push(row);
  }
  return byPid;
}

/**
 * Boot (spec 5.3): close the previous run's exec records, then fill the resident set — processes
 * that were in flight first, parked ones after, up to `cache_cap` — applying recorded actions and
 * resuming each process loaded.
 */
export async function recoverProcesses(core: Core, models: Models, onLoaded?: OnLoaded): Promise<RecoverReport> {
  await core.writer.flush();
  // nothing is resident yet: open exec records of finished processes are their end hooks
  const endHooks = await resumeEndHooks(core, await core.store.queries.openOutboxRecords('exec'), (row) => load(core, models, row));
  const report = await fillSlots(core, models, true, onLoaded);
  report.dispatched += endHooks;
  return report;
}

/**
 * Loads unfinished rows that are not resident into the free slots (spec 5.3 `restore`, 5.5):
 * in-flight rows before parked (`none`) rows, oldest first — first claiming unowned rows and
 * those of lapsed instances, then loading the rows this instance owns; closes the exec records
 * of the processes loaded (resume dispatches their work again), applies their open action records
 * and dispatches their pending work. `boot`: also close action records of gone processes.
 */
export async function fillSlots(core: Core, models: Models, boot = false, onLoaded: OnLoaded = () => undefined): Promise<RecoverReport> {
  const report: RecoverReport = { processes: 0, actions: 0, dispatched: 0, failed: [] };
  const loaded: Process[] = [];
  let total = 0;
  const me = core.config.instanceId;
  const claims: string[] = [];
  // Rows may still wait unless a pass below finds fewer of them than there were free slots.
  let waiting = true;
  for (const states of [IN_FLIGHT_PROC_STATES, UNFINISHED_PROC_STATES.filter((s) => !IN_FLIGHT_PROC_STATES.includes(s))]) {
    let free = core.config.cacheCap - core.residents.activeCount();
    if (free <= 0) {
      waiting = true;
      break;
    }
    // Alone on the store, one row more than there is room for tells whether more are waiting (it
    // stays ours, loaded with the next free slot). Shared, rows are not taken from other instances
    // ahead of need: the tick fills again anyway.
    const spare = multiInstance(core.store) ? 0 : 1;
    const claimed = await core.store.claimProcesses(me, core.now(), states, free + spare);
    claims.push(...claimed);
    waiting = claimed.length > free;
    const owned = await core.store.queries.ownedProcessesIn(me, states, free + core.procs.size);
    if (owned.length === free + core.procs.size) waiting = true;
    const loadable = owned.filter((row) => !core.procs.has(row.id) && !core.residents.finishedHere.has(row.id));
    const candidates = loadable.slice(0, free);
    if (candidates.length < loadable.length) waiting = true;
    total += candidates.length;
    onLoaded({ loaded: loaded.length, total });
    for (let i = 0; i < candidates.length; i += TASKS_PER_QUERY) {
      const chunk = candidates.slice(i, i + TASKS_PER_QUERY);
      // one bad row must fail only its own process: then each process reads its own rows
      const tasks = await tasksByPid(core, chunk.map((row) => row.id)).catch(() => undefined);
      for (const row of chunk) {
        if (core.procs.has(row.id)) continue;
        const proc = await loadOrFail(core, models, row, tasks?.get(row.id), report);
        if (proc) {
          loaded.push(proc);
          free--;
        } else {
          waiting = true; // its slot stays free for another row
          total--;
        }
      }
      onLoaded({ loaded: loaded.length, total });
    }
  }
  core.residents.admissionPending = waiting;
  if (claims.length > 0) core.events.emit('processesClaimed', { pids: claims, boot });
  const parents = loaded.length;
  await loadChildren(core, models, loaded, report);
  if (loaded.length > parents) onLoaded({ loaded: loaded.length, total: total + loaded.length - parents });
  const pids = new Set(loaded.map((p) => p.pid));
  if (pids.size > 0) await closeExecRecords(core, pids);
  if (pids.size > 0 || boot) report.actions = await recoverActions(core, pids);
  for (const proc of loaded) report.dispatched += await resume(core, models, proc);
  // after their own work was dispatched, as the abort would have come after it
  await abortOrphans(core, loaded);
  report.processes = loaded.length;
  core.flush();
  return report;
}

/**
 * Loads one process into memory; one whose rows cannot be rebuilt (its model no longer parses, a
 * row is corrupt) ends in `error` with the reason instead, and the others go on.
 */
async function loadOrFail(core: Core, models: Models, row: ProcRow, tasks: TaskRow[] | undefined, report: RecoverReport): Promise<Process | null> {
  try {
    const proc = await load(core, models, row, tasks);
    core.wireRestored(proc);
    core.residents.adopt(proc);
    return proc;
  } catch (err) {
    const message = `cannot continue process '${row.id}': ${errorMessage(err)}`;
    core.log.error(message);
    report.failed.push({ pid: row.id, message });
    await core.store.procs.update({ ...row, state: 'error', err: { ecode: '', message }, end_time: core.now() });
    return null;
  }
}

/**
 * The unfinished subflow children of loaded processes come along, beyond `cache_cap` (as a child
 * starts beyond it): a parent waiting for a child that waits for a slot would never end. On a
 * shared store a child owned by another live instance stays there (relays connect them).
 */
async function loadChildren(core: Core, models: Models, loaded: Process[], report: RecoverReport): Promise<void> {
  const me = core.config.instanceId;
  for (let round = loaded; round.length > 0; ) {
    const children = await core.store.queries.childProcessesIn(round.map((p) => p.pid), UNFINISHED_PROC_STATES);
    round = [];
    for (const row of children) {
      if (core.procs.has(row.id) || core.residents.finishedHere.has(row.id)) continue;
      if (row.owner !== me && multiInstance(core.store)) continue;
      if (row.owner !== me) await core.store.procs.update({ ...row, owner: me });
      const proc = await loadOrFail(core, models, { ...row, owner: me }, undefined, report);
      if (proc) {
        loaded.push(proc);
        round.push(proc);
      }
    }
  }
}

/**
 * Subflow children whose calling act closed (or whose parent ended) while the abort meant for
 * them was lost in a crash are aborted now: nothing would ever hear their end.
 */
async function abortOrphans(core: Core, loaded: Process[]): Promise<void> {
  for (const child of loaded) {
    if (!child.parentPid || !child.parentTid || child.finished) continue;
    const parent = core.procs.get(child.parentPid);
    let closed: boolean;
    if (parent) closed = parent.finished || (parent.tasks.get(child.parentTid)?.terminal ?? true);
    else {
      const row = await core.store.procs.find(child.parentPid);
      const act = row && !isTerminalName(row.state) ? await core.store.tasks.find(`${row.id}:${child.parentTid}`) : undefined;
      closed = !act || isTerminalName(act.state);
    }
    const root = child.root;
    if (!closed || !root) continue;
    core.job(child.pid, 'abort-orphan', () => {
      if (!child.finished) abortProcess(core, child, root);
    });
  }
}

/**
 * Exec records of processes just loaded are closed (they come from a previous run or another
 * instance): the task rows say what still has to run (`none`, `ready`), and resume dispatches
 * exactly those (recording them again if the lanes are full).
 */
async function closeExecRecords(core: Core, pids: Set<string>): Promise<void> {
  for (const op of await core.store.queries.openOutboxRecords('exec')) if (pids.has(op.pid)) await closeNow(core, op);
}

/** Closes a record outside any job (at boot or for a process that is not loaded here). */
function closeNow(core: Core, op: OpRow): Promise<void> {
  return core.store.ops.update({ ...op, status: 'done', update_time: core.now() });
}

/**
 * `recover_actions` (spec 5.3): an action recorded but not closed is applied again, unless its
 * task already reached a terminal state (it was applied). `cancel` and `remove` are always applied
 * again: their targets are legitimately terminal, and their own guards refuse a duplicate.
 */
async function recoverActions(core: Core, loaded: Set<string>): Promise<number> {
  let applied = 0;
  for (const op of await core.store.queries.openOutboxRecords('action')) {
    // records of processes that stayed resident belong to actions still in flight
    if (core.procs.has(op.pid) && !loaded.has(op.pid)) continue;
    const proc = core.procs.get(op.pid);
    if (!proc) {
      // not resident: applied when its process is loaded, closed when the process is gone or ended
      const row = await core.store.procs.find(op.pid);
      if (!row || !isUnfinishedName(row.state)) await closeNow(core, op);
      continue;
    }
    const task = proc.tasks.get(op.tid);
    const event = op.event ?? '';
    const alwaysAgain = event === 'cancel' || event === 'remove';
    if (!task || (!alwaysAgain && task.terminal)) {
      await closeNow(core, op);
      continue;
    }
    applied++;
    const done = (err: unknown): void => {
      if (err !== undefined) core.log.warn(`recovered action ${event} on ${op.pid}:${op.tid} was refused: ${errorMessage(err)}`);
      core.outbox.close(op);
    };
    const gone = (): void => core.log.warn(`recovered action ${event} on ${op.pid}:${op.tid} waits for the next owner of its process`);
    core.job(proc.pid, `recover action ${event} ${op.tid}`, actionJob(core, proc, { tid: op.tid, action: event, options: (op.options ?? {}) as Vars }, done, gone));
  }
  return applied;
}

async function resume(core: Core, models: Models, proc: Process): Promise<number> {
  let dispatched = 0;
  for (const task of proc.tasks.values()) {
    if (task.terminal) continue;
    if (task.node.timeouts.length > 0) core.timed.add(task);
    if (task.state === 'none' || task.state === 'ready') {
      core.schedule(proc, task);
      dispatched++;
    } else if (task.state === 'running' && task.kind === 'act' && asAct(task.node).uses === 'acts.core.subflow' && !task.autoComplete) {
      // still waiting for its child (its setup chain may have run): find the child, or start it
      if (!(await relinkSubflow(core, models, proc, task))) {
        restartSubflow(core, proc, task);
        dispatched++;
      }
    } else if (rerunIfCutOff(proc, task)) {
      core.schedule(proc, task);
      dispatched++;
    } else if (reviewIfCutOff(proc, task)) {
      core.job(proc.pid, `review ${task.tid}`, () => taskJob(core, proc, task, () => proceed(core, proc, task)));
      dispatched++;
    }
  }
  return dispatched;
}

/** A subflow act whose child start was lost in the crash starts it again, with the params it ran with. */
function restartSubflow(core: Core, proc: Process, task: Task): void {
  core.job(proc.pid, `subflow-restart ${task.tid}`, () =>
    guard(core, proc, task, () => {
      if (task.terminal || proc.finished) return;
      const params = paramsOf(core, proc, task) as { to: string; options?: Vars };
      startSubflow(core, proc, task, params.to, params.options ?? {});
    }),
  );
}

/** Finds the child of a waiting subflow act; returns false when there is none (re-run the act). */
async function relinkSubflow(core: Core, models: Models, proc: Process, task: Task): Promise<boolean> {
  let childPid = task.childPid;
  if (!childPid) {
    childPid = (await core.store.queries.subflowChildOf(proc.pid, task.tid))?.id ?? null;
    if (!childPid) return false;
    task.childPid = childPid;
    core.markDirty(proc, task);
  }
  let child = core.procs.get(childPid);
  if (!child) {
    const row = await core.store.procs.find(childPid);
    if (!row) return false;
    child = await load(core, models, row);
  }
  if (child.finished) returnToParent(core, child);
  return true;
}
