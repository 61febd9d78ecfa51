/** Maps in-memory processes and tasks to store rows (spec 4.1). */
import type { Process } from './process.ts';
import type { ProcRow, TaskRow } from './store/types.ts';
import type { Task } from './task.ts';

export function procRow(proc: Process): ProcRow {
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
    timestamp: proc.startTime,
  };
}

export function taskRow(proc: Process, task: Task): TaskRow {
  return {
    id: `${proc.pid}:${task.tid}`,
    pid: proc.pid,
    tid: task.tid,
    node_data: task.node.dynamic
      ? { id: task.node.id, level: task.node.level, content: task.node.content }
      : { id: task.node.id, level: task.node.level },
    kind: task.kind,
    prev: task.prev?.tid ?? null,
    parent: task.parent?.tid ?? null,
    name: task.node.content.name,
    state: task.state,
    data: { ...task.data },
    err: task.err,
    start_time: task.startTime,
    end_time: task.endTime,
    hooks: {
      hook: task.isHook,
      caught: task.caught,
      fired_timeouts: [...task.firedTimeouts],
      options: task.options,
      output_keys: [...task.outputKeys],
      child_pid: task.childPid,
    },
    timestamp: task.seq,
  };
}
