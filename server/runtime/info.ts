/** Read-only views of processes and tasks returned by the public API. */
import type { Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import type { ErrorInfo } from '../store/contract/types.ts';
import type { Task } from '../engine/task.ts';
import { asAct, nodeKey } from '../engine/tree/node.ts';
import { controlView } from '../engine/control.ts';
import type { ControlView } from '../../vocab/control.ts';

export interface ProcInfo {
  pid: string;
  mid: string;
  model_ver: number;
  name: string;
  state: string;
  start_time: number;
  end_time: number;
  err: ErrorInfo | null;
  /** The declared outcome the run ended on (state `completed`); null for any other end. */
  outcome: string | null;
  outputs: Vars;
  env: Vars;
  parent_pid: string | null;
  parent_tid: string | null;
  /** Who started the process (spec 5.9). */
  owner: string | null;
  workdir: string | null;
  /** When the stuck-process detector found that nothing can move it (epoch ms); 0: not stuck. */
  stuck_since: number;
  /** Paused, breakpoints, step over, open incidents (engine/control.ts). */
  control: ControlView;
}

export interface TaskInfo {
  pid: string;
  tid: string;
  nid: string;
  kind: string;
  name: string;
  key: string;
  uses: string;
  tag: string;
  state: string;
  prev: string | null;
  parent: string | null;
  hook: boolean;
  data: Vars;
  inputs: Vars;
  outputs: Vars;
  /** An act's evaluated params once it ran (null before, and for other kinds). */
  params: unknown;
  err: ErrorInfo | null;
  start_time: number;
  end_time: number;
}

export interface ProcDetail extends ProcInfo {
  tasks: TaskInfo[];
}

export function procInfo(proc: Process): ProcInfo {
  return {
    pid: proc.pid,
    mid: proc.mid,
    model_ver: proc.workflow.ver,
    name: proc.workflow.name,
    state: proc.state,
    start_time: proc.startTime,
    end_time: proc.endTime,
    err: proc.err,
    outcome: proc.outcome,
    outputs: { ...proc.outputs },
    env: { ...proc.env },
    parent_pid: proc.parentPid,
    parent_tid: proc.parentTid,
    owner: proc.owner?.id ?? null,
    workdir: proc.workdir,
    stuck_since: proc.stuckSince,
    control: controlView(proc),
  };
}

/** What a live run page keeps of a task (`processes.summary`): no variables, so no copies of them. */
export type TaskSummary = Pick<TaskInfo, 'pid' | 'tid' | 'nid' | 'kind' | 'key' | 'name' | 'uses' | 'state' | 'parent' | 'start_time' | 'end_time' | 'err'>;

export interface ProcSummary extends ProcInfo {
  tasks: TaskSummary[];
}

const usesOf = (task: Task) => (task.kind === 'act' ? asAct(task.node).uses : '');

export function taskSummary(task: Task): TaskSummary {
  return {
    pid: task.pid,
    tid: task.tid,
    nid: task.node.id,
    kind: task.kind,
    key: nodeKey(task.node),
    name: task.node.content.name,
    uses: usesOf(task),
    state: task.state,
    parent: task.parent?.tid ?? null,
    start_time: task.startTime,
    end_time: task.endTime,
    err: task.err,
  };
}

export function taskInfo(task: Task): TaskInfo {
  return {
    pid: task.pid,
    tid: task.tid,
    nid: task.node.id,
    kind: task.kind,
    name: task.node.content.name,
    key: nodeKey(task.node),
    uses: usesOf(task),
    tag: task.node.content.tag,
    state: task.state,
    prev: task.prev?.tid ?? null,
    parent: task.parent?.tid ?? null,
    hook: task.isHook,
    data: { ...task.data },
    inputs: { ...task.inputs },
    outputs: { ...(task.outputs ?? {}) },
    params: task.paramsReady ? (task.params ?? null) : null,
    err: task.err,
    start_time: task.startTime,
    end_time: task.endTime,
  };
}

export function procDetail(proc: Process): ProcDetail {
  return { ...procInfo(proc), tasks: [...proc.tasks.values()].map(taskInfo) };
}

export function procSummary(proc: Process): ProcSummary {
  return { ...procInfo(proc), tasks: [...proc.tasks.values()].map(taskSummary) };
}
