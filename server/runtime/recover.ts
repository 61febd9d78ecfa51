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
import type { Runtime } from './runtime-types.ts';
import type { Vars } from '../engine/model/types.ts';
import { errorMessage } from '../engine/errors.ts';
import type { Models } from './models.ts';
import type { Process } from '../engine/process.ts';
import { codeCutOff, rerunIfCutOff, restoreProcess, reviewIfCutOff, waitsForChild } from './restore.ts';
import { rerunCode } from '../engine/exec.ts';
import type { OpRow, ProcRow, TaskRow } from '../store/contract/types.ts';
import { startSubflow } from '../engine/subflow.ts';
import { returnToParent } from './subflow-routing.ts';
import { guard, proceed, taskJob } from '../engine/flow.ts';
import { abortProcess } from '../engine/finish.ts';
import type { Task } from '../engine/task.ts';
import { IN_FLIGHT_PROC_STATES, isTerminalName, isUnfinishedName, UNFINISHED_PROC_STATES } from '../../vocab/states.ts';
import { paramsOf } from '../engine/task-data.ts';
import { multiInstance } from './relay-records.ts';
import { resumeEndHooks } from './end-hooks.ts';

/** Unfinished states of a process that has not started (a parked start). */
const PARKED_PROC_STATES = UNFINISHED_PROC_STATES.filter((state) => !IN_FLIGHT_PROC_STATES.includes(state));

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

export async function load(rt: Runtime, models: Models, row: ProcRow, tasks?: TaskRow[]): Promise<Process> {
  const rows = tasks ?? (await rt.store.queries.tasksOf([row.id]));
  return restoreProcess(row, rows, models.snapshot(row.mid, row.model_ver, row.model));
}

/** Processes whose task rows one query reads when many are loaded at once. */
const TASKS_PER_QUERY = 200;

/** The task rows of many processes, a few queries instead of one per process (creation order kept). */
async function tasksByPid(rt: Runtime, pids: string[]): Promise<Map<string, TaskRow[]>> {
  const byPid = new Map<string, TaskRow[]>(pids.map((pid) => [pid, []]));
  for (let i = 0; i < pids.length; i += TASKS_PER_QUERY) {
    const chunk = pids.slice(i, i + TASKS_PER_QUERY);
    for (const row of await rt.store.queries.tasksOf(chunk)) byPid.get(row.pid)?.push(row);
  }
  return byPid;
}

/**
 * Boot (spec 5.3): close the previous run's exec records, then fill the resident set — processes
 * that were in flight first, parked ones after, up to `cache_cap` — applying recorded actions and
 * resuming each process loaded.
 */
export async function recoverProcesses(rt: Runtime, models: Models, onLoaded?: OnLoaded): Promise<RecoverReport> {
  await rt.writer.flush();
  // nothing is resident yet: open exec records of finished processes are their end hooks
  const endHooks = await resumeEndHooks(rt, await rt.store.queries.openOutboxRecords('exec'), (row) => load(rt, models, row));
  const report = await fillSlots(rt, models, true, onLoaded);
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
export async function fillSlots(rt: Runtime, models: Models, boot = false, onLoaded: OnLoaded = () => undefined): Promise<RecoverReport> {
  const report: RecoverReport = { processes: 0, actions: 0, dispatched: 0, failed: [] };
  const loaded: Process[] = [];
  let total = 0;
  const me = rt.config.instanceId;
  const claims: string[] = [];
  // Rows may still wait unless a pass below finds fewer of them than there were free slots.
  let waiting = true;
  // slots freed for waiting rows are theirs even if subflow children (beyond the cap) took them
  let owed = rt.residents.takeOwed();
  for (const states of [IN_FLIGHT_PROC_STATES, PARKED_PROC_STATES]) {
    let free = Math.max(rt.config.cacheCap - rt.residents.activeCount(), owed);
    const room = free;
    // parked starts held in memory go before parked rows: they are older
    if (states === PARKED_PROC_STATES) free -= rt.residents.startParked(free);
    if (free <= 0) {
      waiting = true;
      break;
    }
    // Alone on the store, one row more than there is room for tells whether more are waiting (it
    // stays ours, loaded with the next free slot). Shared, rows are not taken from other instances
    // ahead of need: the tick fills again anyway.
    const spare = multiInstance(rt.store) ? 0 : 1;
    const claimed = await rt.store.claimProcesses(me, rt.clock.now(), states, free + spare);
    claims.push(...claimed);
    waiting = claimed.length > free;
    const owned = await rt.store.queries.ownedProcessesIn(me, states, free + rt.procs.size);
    if (owned.length === free + rt.procs.size) waiting = true;
    const loadable = owned.filter((row) => !rt.procs.has(row.id) && !rt.residents.finishedHere.has(row.id) && !rt.residents.holdsParked(row.id));
    const candidates = loadable.slice(0, free);
    if (candidates.length < loadable.length) waiting = true;
    total += candidates.length;
    onLoaded({ loaded: loaded.length, total });
    for (let i = 0; i < candidates.length; i += TASKS_PER_QUERY) {
      const chunk = candidates.slice(i, i + TASKS_PER_QUERY);
      // one bad row must fail only its own process: then each process reads its own rows
      const tasks = await tasksByPid(rt, chunk.map((row) => row.id)).catch(() => undefined);
      for (const row of chunk) {
        if (rt.procs.has(row.id)) continue;
        const proc = await loadOrFail(rt, models, row, tasks?.get(row.id), report);
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
    owed = Math.max(0, owed - (room - free));
  }
  rt.residents.admissionPending = waiting;
  const parents = loaded.length;
  await loadChildren(rt, models, loaded, report, claims);
  if (claims.length > 0) rt.events.emit('processesClaimed', { pids: claims, boot });
  if (loaded.length > parents) onLoaded({ loaded: loaded.length, total: total + loaded.length - parents });
  const pids = new Set(loaded.map((p) => p.pid));
  if (pids.size > 0) await closeExecRecords(rt, pids);
  if (pids.size > 0 || boot) report.actions = await recoverActions(rt, pids);
  for (const proc of loaded) report.dispatched += await resume(rt, models, proc);
  // after their own work was dispatched, as the abort would have come after it
  await abortOrphans(rt, loaded);
  report.processes = loaded.length;
  rt.batch.flush();
  return report;
}

/**
 * Loads one process into memory; one whose rows cannot be rebuilt (its model no longer parses, a
 * row is corrupt) ends in `error` with the reason instead, and the others go on.
 */
async function loadOrFail(rt: Runtime, models: Models, row: ProcRow, tasks: TaskRow[] | undefined, report: RecoverReport): Promise<Process | null> {
  try {
    const proc = await load(rt, models, row, tasks);
    rt.tasks.wireRestored(proc);
    rt.residents.adopt(proc);
    return proc;
  } catch (err) {
    const message = `cannot continue process '${row.id}': ${errorMessage(err)}`;
    rt.log.error(message);
    report.failed.push({ pid: row.id, message });
    await rt.store.procs.update({ ...row, state: 'error', err: { ecode: '', message }, end_time: rt.clock.now() });
    return null;
  }
}

/**
 * The unfinished subflow children of loaded processes come along, beyond `cache_cap` (as a child
 * starts beyond it): a parent waiting for a child that waits for a slot would never end. On a
 * shared store a child owned by another live instance stays there (relays connect them).
 */
async function loadChildren(rt: Runtime, models: Models, loaded: Process[], report: RecoverReport, claims: string[]): Promise<void> {
  const me = rt.config.instanceId;
  for (let round = loaded; round.length > 0; ) {
    const children = await rt.store.queries.childProcessesIn(round.map((p) => p.pid), UNFINISHED_PROC_STATES);
    round = [];
    // shared: a child left by a lapsed (or closed) instance is claimed with its parent, beyond the
    // claim's limit — no slot fill would take it while its parent holds the slot
    const shared = multiInstance(rt.store);
    const foreign = shared ? children.filter((row) => row.owner !== me && !rt.procs.has(row.id)).map((row) => row.id) : [];
    const claimed = new Set(foreign.length > 0 ? await rt.store.claimProcesses(me, rt.clock.now(), UNFINISHED_PROC_STATES, foreign.length, foreign) : []);
    claims.push(...claimed);
    for (const row of children) {
      if (rt.procs.has(row.id) || rt.residents.finishedHere.has(row.id)) continue;
      if (row.owner !== me && shared && !claimed.has(row.id)) continue;
      if (row.owner !== me && !shared) await rt.store.procs.update({ ...row, owner: me });
      const proc = await loadOrFail(rt, models, { ...row, owner: me }, undefined, report);
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
async function abortOrphans(rt: Runtime, loaded: Process[]): Promise<void> {
  for (const child of loaded) {
    if (!child.parentPid || !child.parentTid || child.finished) continue;
    const parent = rt.procs.get(child.parentPid);
    let closed: boolean;
    if (parent) closed = parent.finished || (parent.tasks.get(child.parentTid)?.terminal ?? true);
    else {
      const row = await rt.store.procs.find(child.parentPid);
      const act = row && !isTerminalName(row.state) ? await rt.store.tasks.find(`${row.id}:${child.parentTid}`) : undefined;
      closed = !act || isTerminalName(act.state);
    }
    const root = child.root;
    if (!closed || !root) continue;
    rt.jobs.job(child.pid, 'abort-orphan', () => {
      if (!child.finished) abortProcess(rt.port, child, root);
    });
  }
}

/**
 * Exec records of processes just loaded are closed (they come from a previous run or another
 * instance): the task rows say what still has to run (`none`, `ready`), and resume dispatches
 * exactly those (recording them again if the lanes are full).
 */
async function closeExecRecords(rt: Runtime, pids: Set<string>): Promise<void> {
  for (const op of await rt.store.queries.openOutboxRecords('exec')) if (pids.has(op.pid)) await closeNow(rt, op);
}

/** Closes a record outside any job (at boot or for a process that is not loaded here). */
function closeNow(rt: Runtime, op: OpRow): Promise<void> {
  return rt.store.ops.update({ ...op, status: 'done', update_time: rt.clock.now() });
}

/**
 * `recover_actions` (spec 5.3): an action recorded but not closed is applied again, unless its
 * task already reached a terminal state (it was applied). `cancel` and `remove` are always applied
 * again: their targets are legitimately terminal, and their own guards refuse a duplicate.
 */
async function recoverActions(rt: Runtime, loaded: Set<string>): Promise<number> {
  let applied = 0;
  for (const op of await rt.store.queries.openOutboxRecords('action')) {
    // records of processes that stayed resident belong to actions still in flight
    if (rt.procs.has(op.pid) && !loaded.has(op.pid)) continue;
    const proc = rt.procs.get(op.pid);
    if (!proc) {
      // not resident: applied when its process is loaded, closed when the process is gone or ended
      const row = await rt.store.procs.find(op.pid);
      if (!row || !isUnfinishedName(row.state)) await closeNow(rt, op);
      continue;
    }
    const task = proc.tasks.get(op.tid);
    const event = op.event ?? '';
    const alwaysAgain = event === 'cancel' || event === 'remove';
    if (!task || (!alwaysAgain && task.terminal)) {
      await closeNow(rt, op);
      continue;
    }
    applied++;
    const done = (err: unknown): void => {
      if (err !== undefined) rt.log.warn(`recovered action ${event} on ${op.pid}:${op.tid} was refused: ${errorMessage(err)}`);
      rt.outbox.close(op);
    };
    const gone = (): void => rt.log.warn(`recovered action ${event} on ${op.pid}:${op.tid} waits for the next owner of its process`);
    rt.jobs.job(proc.pid, `recover action ${event} ${op.tid}`, actionJob(rt, proc, { tid: op.tid, action: event, options: (op.options ?? {}) as Vars }, done, gone));
  }
  return applied;
}

async function resume(rt: Runtime, models: Models, proc: Process): Promise<number> {
  let dispatched = 0;
  for (const task of proc.tasks.values()) {
    if (task.terminal) continue;
    if (task.node.timeouts.length > 0) rt.timed.add(task);
    if (task.state === 'none' || task.state === 'ready') {
      rt.executions.schedule(proc, task);
      dispatched++;
    } else if (waitsForChild(task)) {
      // find the child, or start it
      if (!(await relinkSubflow(rt, models, proc, task))) {
        restartSubflow(rt, proc, task);
        dispatched++;
      }
    } else if (codeCutOff(task)) {
      rt.jobs.job(proc.pid, `code-restart ${task.tid}`, () => rerunCode(rt.port, proc, task));
      dispatched++;
    } else if (rerunIfCutOff(proc, task)) {
      rt.executions.schedule(proc, task);
      dispatched++;
    } else if (reviewIfCutOff(proc, task)) {
      rt.jobs.job(proc.pid, `review ${task.tid}`, () => taskJob(rt.port, proc, task, () => proceed(rt.port, proc, task)));
      dispatched++;
    }
  }
  return dispatched;
}

/** A subflow act whose child start was lost in the crash starts it again, with the params it ran with. */
function restartSubflow(rt: Runtime, proc: Process, task: Task): void {
  rt.jobs.job(proc.pid, `subflow-restart ${task.tid}`, () =>
    guard(rt.port, proc, task, () => {
      if (task.terminal || proc.finished) return;
      const params = paramsOf(rt.port, proc, task) as { to: string; options?: Vars };
      startSubflow(rt.port, proc, task, params.to, params.options ?? {});
    }),
  );
}

/** Finds the child of a waiting subflow act; returns false when there is none (re-run the act). */
async function relinkSubflow(rt: Runtime, models: Models, proc: Process, task: Task): Promise<boolean> {
  let childPid = task.childPid;
  if (!childPid) {
    childPid = (await rt.store.queries.subflowChildOf(proc.pid, task.tid))?.id ?? null;
    if (!childPid) return false;
    task.childPid = childPid;
    rt.tasks.markDirty(proc, task);
  }
  let child = rt.procs.get(childPid);
  if (!child) {
    const row = await rt.store.procs.find(childPid);
    if (!row) return false;
    child = await load(rt, models, row);
  }
  if (child.finished) returnToParent(rt, rt.port, child);
  return true;
}
