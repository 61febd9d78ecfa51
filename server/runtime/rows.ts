/**
 * Maps in-memory processes and tasks to store rows and back (spec 4.1). A task row carries
 * everything the engine needs to continue the task after a reload: its node reference, data,
 * inputs/outputs, cached params, flags and the definitions of nodes it built at run time.
 */
import type { Act, Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import { parseTaskState } from '../../vocab/states.ts';
import type { ProcRow, TaskRow } from '../store/contract/types.ts';
import type { Task } from '../engine/task.ts';
import type { OwnerScope } from '../engine/owner-scope.ts';
import { inputsText } from './inputs-text.ts';
import type { RetiredInfo } from '../engine/tree/retired.ts';

/** Node reference of a task row: a compiled node by id, or a run-time node by origin task and id. */
export interface NodeRef {
  id: string;
  level: number;
  origin: string | null;
  /** A node a migration retired (engine/tree/retired.ts): what it keeps of the node it stands for. */
  retired?: RetiredInfo;
  /** A retired node's successor in the model (a task a migration cancelled goes on there). */
  next?: string;
}

/** Engine state of a task beyond its columns (the `hooks` JSON of the row). */
export interface TaskExtra {
  hook: boolean;
  caught: boolean;
  fired_timeouts: number[];
  options: Vars;
  output_keys: string[];
  child_pid: string | null;
  inputs: Vars;
  outputs: Vars | null;
  params: unknown;
  params_ready: boolean;
  emit_disabled: boolean;
  auto_complete: boolean;
  created_hook_fired: boolean;
  propagated: boolean;
  expansion: { mode: 'sequence' | 'parallel'; acts: Act[] } | null;
  pushed: Act[];
  /** Root task only: the process's owner scope and workdir (spec 5.9). */
  owner?: OwnerScope | null;
  workdir?: string | null;
}

/** The row of a process; `owner` is the engine instance writing it (it runs the process). */
export function procRow(proc: Process, owner: string | null): ProcRow {
  return {
    id: proc.pid,
    state: proc.state,
    mid: proc.mid,
    name: proc.workflow.name,
    start_time: proc.startTime,
    end_time: proc.endTime,
    model: proc.source,
    model_ver: proc.workflow.ver,
    env: { ...proc.env },
    err: proc.err,
    parent_pid: proc.parentPid,
    parent_tid: proc.parentTid,
    timestamp: proc.created,
    owner,
    stuck_since: proc.stuckSince,
    start_key: proc.startKey?.key ?? null,
    start_digest: proc.startKey?.digest ?? null,
    inputs_text: inputsText(proc.root?.inputs),
    outcome: proc.outcome,
    // a copy: the row stays as written while the process's control changes on
    control: proc.control ? structuredClone(proc.control) : null,
    rerun_of: proc.control?.rerunOf?.pid ?? null,
  };
}

/** The extra state of a task that has done nothing yet: a fresh object each call (rows share none of it). */
function extraDefaults(): TaskExtra {
  return {
    hook: false,
    caught: false,
    fired_timeouts: [],
    options: {},
    output_keys: [],
    child_pid: null,
    inputs: {},
    outputs: null,
    params: null,
    params_ready: false,
    emit_disabled: false,
    auto_complete: true,
    created_hook_fired: false,
    propagated: false,
    expansion: null,
    pushed: [],
  };
}

const DEFAULTS = extraDefaults();

const isEmpty = (value: unknown): boolean =>
  Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;

/**
 * A task row's `hooks` JSON holds only the fields that differ from `extraDefaults()` (most stay
 * at their default for the whole life of a task): ~100 bytes a row instead of ~330. Rows written
 * with every field read the same.
 */
function compactExtra(extra: TaskExtra): Partial<TaskExtra> {
  const compact: Record<string, unknown> = {};
  for (const key of Object.keys(extra) as Array<keyof TaskExtra>) {
    const value = extra[key];
    const fallback = DEFAULTS[key];
    if (value === undefined || value === fallback || (value === null && fallback === undefined)) continue;
    if (fallback !== null && typeof fallback === 'object' && isEmpty(value)) continue;
    compact[key] = value;
  }
  return compact as Partial<TaskExtra>;
}

/** The extra state of a stored task row, its left-out fields at their defaults. */
export function extraOf(row: TaskRow): TaskExtra {
  return { ...extraDefaults(), ...(row.hooks as Partial<TaskExtra> | null) };
}

/** Whether two rows of a process hold the same values (`env` and `err` compared as JSON). */
export function sameProcRow(a: ProcRow, b: ProcRow): boolean {
  for (const key of Object.keys(a) as Array<keyof ProcRow>) {
    if (key === 'env' || key === 'err' || key === 'control') continue;
    if (a[key] !== b[key]) return false;
  }
  return JSON.stringify(a.env) === JSON.stringify(b.env) && JSON.stringify(a.err) === JSON.stringify(b.err) && JSON.stringify(a.control) === JSON.stringify(b.control);
}

export function taskRow(proc: Process, task: Task): TaskRow {
  // `id` first: the runs list's failing-node filter matches the start of this JSON text (read-model.ts processesFailingAt)
  const node: NodeRef = { id: task.node.id, level: task.node.level, origin: task.node.origin };
  if (task.node.retired) {
    node.retired = task.node.retired;
    if (task.node.next) node.next = task.node.next.id;
  }
  const extra: TaskExtra = {
    hook: task.isHook,
    caught: task.caught,
    fired_timeouts: [...task.firedTimeouts],
    options: task.options,
    output_keys: [...task.outputKeys],
    child_pid: task.childPid,
    inputs: task.inputs,
    outputs: task.outputs ?? null,
    params: task.paramsReady ? (task.params ?? null) : null,
    params_ready: task.paramsReady,
    emit_disabled: task.emitDisabled,
    auto_complete: task.autoComplete,
    created_hook_fired: task.createdHookFired,
    propagated: task.propagated,
    expansion: task.expansion,
    pushed: task.pushed,
  };
  if (task.tid === '$') {
    extra.owner = proc.owner;
    extra.workdir = proc.workdir;
  }
  return {
    id: `${proc.pid}:${task.tid}`,
    pid: proc.pid,
    tid: task.tid,
    node_data: node,
    kind: task.kind,
    prev: task.prev?.tid ?? null,
    parent: task.parent?.tid ?? null,
    name: task.node.content.name,
    state: task.state,
    data: { ...task.data },
    err: task.err,
    start_time: task.startTime,
    end_time: task.endTime,
    hooks: compactExtra(extra),
    timestamp: task.seq,
  };
}

/** Copies the stored state of a task row (`extra`: its extra state, read already) onto a freshly created task. */
export function applyTaskRow(task: Task, row: TaskRow, extra: TaskExtra = extraOf(row)): void {
  task.state = parseTaskState(row.state);
  task.data = { ...row.data };
  task.err = row.err;
  task.startTime = row.start_time;
  task.endTime = row.end_time;
  task.caught = extra.caught;
  task.firedTimeouts = new Set(extra.fired_timeouts);
  task.options = { ...extra.options };
  task.outputKeys = new Set(extra.output_keys);
  task.childPid = extra.child_pid;
  task.inputs = { ...extra.inputs };
  task.outputs = extra.outputs ?? undefined;
  task.paramsReady = extra.params_ready;
  task.params = extra.params_ready ? extra.params : undefined;
  task.emitDisabled = extra.emit_disabled;
  task.autoComplete = extra.auto_complete;
  task.createdHookFired = extra.created_hook_fired;
  task.propagated = extra.propagated;
  task.expansion = extra.expansion;
  task.pushed = extra.pushed;
}
