/**
 * The invariants of the simulation (issue 9), checked after every step: one function over a view
 * of the world (every process with its task table, the outbox, what the engine reports as stuck)
 * and the log of committed messages. Tests and `npm run sim` call the same `checkInvariants`.
 */
import type { TaskInfo } from '../../server/runtime/info.ts';
import type { StuckProcess } from '../../server/runtime/liveness.ts';
import type { ModelRow, OpRow, ProcRow } from '../../server/store/contract/types.ts';
import { factsOf, NAMED } from './model-facts.ts';
import { quorumOf, votesOf } from '../../vocab/quorum.ts';

export interface ProcView {
  /** A name that does not depend on generated ids: the root's pid, or the parent's name and act path. */
  name: string;
  row: ProcRow;
  tasks: TaskInfo[];
}

export interface WorldView {
  procs: ProcView[];
  ops: OpRow[];
  /** Resident processes the engine says nothing can move. */
  stuck: StuckProcess[];
  /** Unfinished processes in memory, the admission cap, and parked processes (state `none`). */
  resident: number;
  cacheCap: number;
  /** The simulation ended: everything must be finished and every record closed. */
  final: boolean;
  /** The deployed models, each at its latest version. */
  models: ModelRow[];
}

/**
 * A committed task event (its state), message (its message state) or control change of a process
 * (`paused` or `running`), in emission order.
 */
export interface HistoryEntry {
  kind: 'task' | 'message' | 'control';
  pid: string;
  tid: string;
  nid: string;
  type: string;
  state: string;
}

export interface Violation {
  invariant: string;
  pid?: string;
  detail: string;
}

const TERMINAL = new Set(['completed', 'submitted', 'backed', 'cancelled', 'error', 'aborted', 'skipped', 'removed']);
export const isTerminalState = (state: string): boolean => TERMINAL.has(state);

/** One line per task, for reports. */
export function taskTable(tasks: TaskInfo[]): string {
  return tasks.map((t) => `  ${t.tid} ${t.kind} ${t.nid} ${t.state}${t.hook ? ' (hook)' : ''} parent=${t.parent ?? '-'} prev=${t.prev ?? '-'}`).join('\n');
}

function finishedOpen(p: ProcView): Violation[] {
  if (!isTerminalState(p.row.state)) return [];
  const open = p.tasks.filter((t) => !t.hook && !isTerminalState(t.state));
  if (open.length === 0) return [];
  return [{ invariant: 'finished-has-open-tasks', pid: p.row.id, detail: `process ${p.name} is ${p.row.state} but ${open.map((t) => `${t.nid}(${t.tid}) is ${t.state}`).join(', ')}\n${taskTable(p.tasks)}` }];
}

/** An open task under a closed one can no longer matter: it must have been closed with it. */
function staleOpen(p: ProcView): Violation[] {
  if (isTerminalState(p.row.state)) return [];
  const byTid = new Map(p.tasks.map((t) => [t.tid, t]));
  const stale = p.tasks.filter((t) => {
    if (t.hook || isTerminalState(t.state) || !t.parent) return false;
    const parent = byTid.get(t.parent);
    return parent !== undefined && isTerminalState(parent.state);
  });
  if (stale.length === 0) return [];
  const what = stale.map((t) => `${t.nid}(${t.tid}) is ${t.state} under ${byTid.get(t.parent!)!.nid}(${t.parent}) which is ${byTid.get(t.parent!)!.state}`);
  return [{ invariant: 'stale-open-task', pid: p.row.id, detail: `process ${p.name}: ${what.join('; ')}\n${taskTable(p.tasks)}` }];
}

/** A run that ended on a declared outcome is completed, without an error; an outcome's ecode never ends a run in error. */
function outcomeEnd(p: ProcView): Violation[] {
  const { outcome, state, err } = p.row;
  if (outcome && (state !== 'completed' || err)) return [{ invariant: 'outcome-end', pid: p.row.id, detail: `process ${p.name} ended on outcome '${outcome}' but is ${state}${err ? ` with error ${JSON.stringify(err)}` : ''}` }];
  if (state === 'error' && err && (err as { outcome?: string }).outcome) return [{ invariant: 'outcome-end', pid: p.row.id, detail: `process ${p.name} ended in error from outcome '${(err as { outcome?: string }).outcome}'` }];
  return [];
}

/** Parent and child processes agree about each other's state. */
/** An act decided by votes counts each voter once, and one its votes approved had as many approvers as it needs. */
function votesCounted(p: ProcView): Violation[] {
  const out: Violation[] = [];
  for (const t of p.tasks) {
    const quorum = t.kind === 'act' ? quorumOf(t.params) : null;
    if (!quorum) continue;
    const users = votesOf(t.data).map((v) => v.user);
    if (new Set(users).size !== users.length) out.push({ invariant: 'vote-once', pid: p.row.id, detail: `process ${p.name}: act ${t.nid} (${t.tid}) counted a voter twice: ${users.join(', ')}` });
    const approvedBy = t.outputs.approved_by;
    if (Array.isArray(approvedBy) && typeof quorum.need === 'number' && new Set(approvedBy).size < quorum.need) {
      out.push({ invariant: 'vote-quorum', pid: p.row.id, detail: `process ${p.name}: act ${t.nid} (${t.tid}) was approved by ${approvedBy.join(', ')}, short of ${quorum.need}` });
    }
  }
  return out;
}

function subflowAgreement(world: WorldView): Violation[] {
  const byPid = new Map(world.procs.map((p) => [p.row.id, p]));
  const out: Violation[] = [];
  for (const child of world.procs) {
    const { parent_pid: ppid, parent_tid: ptid } = child.row;
    if (!ppid || !ptid) continue;
    const parent = byPid.get(ppid);
    const act = parent?.tasks.find((t) => t.tid === ptid);
    if (!parent || !act) {
      out.push({ invariant: 'subflow-agreement', pid: child.row.id, detail: `child ${child.name} names parent ${ppid}:${ptid}, which does not exist` });
      continue;
    }
    const childDone = isTerminalState(child.row.state);
    const parentDone = isTerminalState(parent.row.state) || isTerminalState(act.state);
    if (!childDone && parentDone) {
      out.push({ invariant: 'subflow-agreement', pid: child.row.id, detail: `child ${child.name} is ${child.row.state} but its parent act ${act.nid} is ${act.state} (process ${parent.row.state})` });
    }
    // after the child's end the act may still run its catch or timeout steps, but not wait idle
    const handling = parent.tasks.some((t) => t.parent === act.tid && !t.hook && !isTerminalState(t.state));
    if (childDone && !parentDone && !handling) {
      out.push({ invariant: 'subflow-agreement', pid: child.row.id, detail: `child ${child.name} ended ${child.row.state} but its parent act ${act.nid} is still ${act.state}` });
    }
  }
  return out;
}

/**
 * Every act reaches `completed` at most once, and a task sends one message per transition: a
 * second message of the same state needs a task event of another state in between.
 */
function messageOnce(history: readonly HistoryEntry[]): Violation[] {
  const out: Violation[] = [];
  const lastEvent = new Map<string, string>();
  const lastMessage = new Map<string, string>();
  const completed = new Set<string>();
  for (const e of history) {
    if (e.kind === 'control') continue;
    const key = `${e.pid}:${e.tid}`;
    if (e.kind === 'task') {
      if (lastEvent.get(key) !== e.state) lastMessage.delete(key);
      lastEvent.set(key, e.state);
      continue;
    }
    if (lastMessage.get(key) === e.state) {
      out.push({ invariant: 'message-once', pid: e.pid, detail: `task ${e.tid} (${e.type} ${e.nid}) sent '${e.state}' twice for one transition` });
    }
    lastMessage.set(key, e.state);
    if (e.type === 'act' && e.state === 'completed') {
      if (completed.has(key)) out.push({ invariant: 'act-completed-once', pid: e.pid, detail: `act ${e.nid} (${e.tid}) completed twice` });
      completed.add(key);
    }
  }
  return out;
}

/** The same act node never completes twice under the same enclosing task (hooks excepted). */
function actOncePerPlace(p: ProcView): Violation[] {
  const seen = new Map<string, string>();
  const out: Violation[] = [];
  for (const t of p.tasks) {
    if (t.kind !== 'act' || t.hook || t.state !== 'completed') continue;
    const place = `${t.parent}:${t.nid}`;
    const other = seen.get(place);
    if (other) out.push({ invariant: 'act-ran-twice', pid: p.row.id, detail: `process ${p.name}: act ${t.nid} completed twice under ${t.parent} (${other} and ${t.tid})\n${taskTable(p.tasks)}` });
    seen.set(place, t.tid);
  }
  return out;
}

function finalChecks(world: WorldView): Violation[] {
  const out: Violation[] = [];
  for (const p of world.procs) {
    if (!isTerminalState(p.row.state)) out.push({ invariant: 'not-finished', pid: p.row.id, detail: `process ${p.name} is still ${p.row.state} at the end\n${taskTable(p.tasks)}` });
  }
  for (const op of world.ops) {
    if (op.status === 'done') continue;
    const task = world.procs.find((p) => p.row.id === op.pid)?.tasks.find((t) => t.tid === op.tid);
    const what = task ? `${task.kind} ${task.nid}${task.hook ? ' (hook)' : ''}, ${task.state}` : 'no such task';
    out.push({ invariant: 'outbox-done', pid: op.pid, detail: `outbox record ${op.type} ${op.event ?? ''} for ${op.pid}:${op.tid} (${what}) ended ${op.status}` });
  }
  return out;
}

/**
 * A paused process starts no task (engine/control.ts): between its `paused` control entry and the
 * next `running` one, no task of it enters `running` or `interrupted` for the first time.
 */
function pausedStartsNothing(history: readonly HistoryEntry[]): Violation[] {
  const paused = new Set<string>();
  const started = new Set<string>();
  const out: Violation[] = [];
  for (const e of history) {
    if (e.kind === 'control') {
      if (e.state === 'paused') paused.add(e.pid);
      else paused.delete(e.pid);
      continue;
    }
    if (e.kind !== 'task' || (e.state !== 'running' && e.state !== 'interrupted')) continue;
    const key = `${e.pid}/${e.tid}`;
    if (started.has(key)) continue;
    started.add(key);
    if (paused.has(e.pid)) out.push({ invariant: 'paused-starts-nothing', pid: e.pid, detail: `task ${e.tid} (${e.type} ${e.nid}) of ${e.pid} started while its process was paused` });
  }
  return out;
}

/**
 * A live task sits at a node of the version its process runs (after a migration too: the target's;
 * finished tasks may keep retired nodes). Run-time nodes (fan-out items, pushed acts) are not in
 * the source and are left out.
 */
export function onItsVersion(p: ProcView): Violation[] {
  if (!p.row.model) return [];
  const nodes = factsOf(p.row.model).nodes;
  const astray = p.tasks.filter((t) => !isTerminalState(t.state) && NAMED.test(t.nid) && !t.nid.startsWith('pushed') && !nodes.has(t.nid));
  if (astray.length === 0) return [];
  const what = astray.map((t) => `${t.kind} ${t.nid}(${t.tid}) is ${t.state}`).join(', ');
  return [{ invariant: 'task-off-version', pid: p.row.id, detail: `process ${p.name} runs version ${p.row.model_ver} of ${p.row.mid}, which has no node for ${what}\n${taskTable(p.tasks)}` }];
}

/** Every invariant over one view of the world; empty when all hold. */
export function checkInvariants(world: WorldView, history: readonly HistoryEntry[]): Violation[] {
  const out: Violation[] = [];
  for (const s of world.stuck) {
    out.push({ invariant: 'liveness', pid: s.pid, detail: `process ${s.pid} (${s.mid}) is ${s.state} with nothing that can move it:\n  ${s.tasks.join('\n  ')}` });
  }
  // a root whose execution overflowed the lanes waits for its replay, not for a slot
  const overflowed = new Set(world.ops.filter((op) => op.type === 'exec' && op.status !== 'done').map((op) => op.pid));
  const parked = world.procs.filter((p) => p.row.state === 'none' && !overflowed.has(p.row.id));
  if (parked.length > 0 && world.resident < world.cacheCap) {
    const names = parked.map((p) => p.name).join(', ');
    out.push({ invariant: 'admission', detail: `${parked.length} parked process(es) (${names}) wait while only ${world.resident} of ${world.cacheCap} slots are used` });
  }
  for (const p of world.procs) out.push(...finishedOpen(p), ...staleOpen(p), ...actOncePerPlace(p), ...outcomeEnd(p), ...onItsVersion(p), ...votesCounted(p));
  out.push(...subflowAgreement(world), ...messageOnce(history), ...pausedStartsNothing(history));
  if (world.final) out.push(...finalChecks(world));
  return out;
}
