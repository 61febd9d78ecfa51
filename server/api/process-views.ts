/** Read views of a process for the API: the task tree, the list row, the timeline. */
import type { TaskInfo } from '../runtime/info.ts';
import type { MessageRow, ProcRow } from '../runtime/read-model-types.ts';

export interface TaskNode {
  tid: string;
  nid: string;
  kind: string;
  key: string;
  name: string;
  state: string;
  children: TaskNode[];
}

/** Nests tasks under their `parent`, in creation order. */
export function taskTree(tasks: TaskInfo[]): TaskNode[] {
  const nodes = new Map<string, TaskNode>();
  for (const t of tasks) nodes.set(t.tid, { tid: t.tid, nid: t.nid, kind: t.kind, key: t.key, name: t.name, state: t.state, children: [] });
  const roots: TaskNode[] = [];
  for (const t of tasks) {
    const node = nodes.get(t.tid)!;
    const parent = t.parent ? nodes.get(t.parent) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** A process row without its model source. */
export function procListRow(row: ProcRow) {
  return {
    pid: row.id,
    state: row.state,
    mid: row.mid,
    model_ver: row.model_ver,
    name: row.name,
    start_time: row.start_time,
    end_time: row.end_time,
    err: row.err,
    /** The declared outcome the run ended on (state `completed`); null for any other end. */
    outcome: row.outcome ?? null,
    parent_pid: row.parent_pid,
    parent_tid: row.parent_tid,
    /** When nothing could move it any more (epoch ms); 0: not stuck. */
    stuck_since: row.stuck_since,
  };
}

/** One line per message: what happened to which task, when. */
export function timeline(messages: MessageRow[]) {
  return messages.map((m) => ({ time: m.create_time, tid: m.tid, nid: m.nid, key: m.key, type: m.type, state: m.state, id: m.id }));
}

