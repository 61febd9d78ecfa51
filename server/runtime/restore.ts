/**
 * Rebuilding processes from store rows (spec 4.1, 5.3): the process and its task table come back
 * exactly as last written, with compiled nodes found by id and run-time nodes re-created from the
 * definitions stored on the task that built them.
 */
import { ActError } from '../engine/errors.ts';
import { Process } from '../engine/process.ts';
import { applyTaskRow, extraOf, type NodeRef } from './rows.ts';
import { parseTaskState } from '../../vocab/states.ts';
import type { ProcRow, TaskRow } from '../store/contract/types.ts';
import { Task } from '../engine/task.ts';
import type { NodeTree } from '../engine/tree/compile.ts';
import { dynamicNode } from '../engine/dynamic-nodes.ts';
import { retiredNode } from '../engine/tree/retired.ts';
import { asAct, asBranch, type Node } from '../engine/tree/node.ts';
import { neededDone } from '../engine/branches.ts';
import type { Workflow } from '../engine/model/types.ts';

/** The node of a stored task: the root, a compiled node, a run-time node, or a node a migration retired. */
function nodeOf(proc: Process, tree: NodeTree, tid: string, ref: NodeRef, parent: Task | null): Node | undefined {
  if (ref.retired) return retiredNode(ref.id, ref.retired, parent?.node ?? null, ref.next ? (tree.nodes.get(ref.next) ?? null) : null);
  if (ref.origin !== null) return dynamicNode(proc, ref.origin, ref.id);
  return tid === '$' ? tree.root : tree.nodes.get(ref.id);
}

export function restoreProcess(row: ProcRow, taskRows: TaskRow[], model: { workflow: Workflow; tree: NodeTree }): Process {
  const proc = new Process(row.id, model.workflow, row.model, model.tree, row.parent_pid, row.parent_tid);
  proc.state = parseTaskState(row.state);
  proc.err = row.err;
  proc.outcome = row.outcome ?? null;
  proc.control = row.control ?? null;
  proc.startTime = row.start_time;
  proc.endTime = row.end_time;
  proc.env = { ...row.env };
  proc.created = row.timestamp;
  proc.stuckSince = row.stuck_since;
  proc.startKey = row.start_key ? { key: row.start_key, digest: row.start_digest ?? '' } : null;
  const sorted = [...taskRows].sort((a, b) => a.timestamp - b.timestamp);
  for (const r of sorted) {
    const ref = r.node_data as NodeRef;
    const prev = r.prev ? (proc.tasks.get(r.prev) ?? null) : null;
    const parent = r.parent ? (proc.tasks.get(r.parent) ?? null) : null;
    const node = nodeOf(proc, model.tree, r.tid, ref, parent);
    if (!node) {
      throw new ActError('internal', `process '${row.id}': task '${r.tid}' refers to node '${ref.id}', which its model does not have`);
    }
    const extra = extraOf(r);
    const task = new Task(row.id, r.tid, node, prev, parent, extra.hook, r.timestamp);
    applyTaskRow(task, r, extra);
    proc.add(task);
    proc.restoreSeq(r.timestamp);
  }
  proc.outputs = proc.root?.outputs ?? {};
  const rootRow = taskRows.find((r) => r.tid === '$');
  const scope = rootRow ? extraOf(rootRow) : undefined;
  proc.owner = scope?.owner ?? null;
  proc.workdir = scope?.workdir ?? null;
  return proc;
}

/**
 * An act that a crash cut off while it ran (`running` with no children: its code, or its start)
 * runs again from `ready` after a restart; returns whether it was one.
 */
export function rerunIfCutOff(proc: Process, task: Task): boolean {
  if (task.state !== 'running' || task.kind !== 'act' || proc.workChildren(task).length > 0) return false;
  task.state = 'ready';
  return true;
}

/**
 * A code act that a crash cut off while its code ran on a worker, or an http, shell or state act
 * while its call, script or store operation was in flight: `running` and not completing by itself (a subflow act, which also waits, is not
 * one: it waits for its child). Its setup chain may have started beside it, so it is not re-run
 * from `ready`; its package runs again (exec.ts): the code runs, the call is made, the script
 * runs, again.
 */
export function codeCutOff(task: Task): boolean {
  return waitsInRun(task) && asAct(task.node).uses !== 'acts.core.subflow';
}

/** A subflow act waiting for its child (its setup chain may have run). */
export function waitsForChild(task: Task): boolean {
  return waitsInRun(task) && asAct(task.node).uses === 'acts.core.subflow';
}

/** A running act that does not complete by itself: it waits for its code or its child. */
function waitsInRun(task: Task): boolean {
  return task.state === 'running' && task.kind === 'act' && !task.autoComplete;
}

/**
 * A running task whose review a crash cut off: its work children are all terminal, or (a step) a
 * branch still pends on needs that are all done — while no job is left to review it: the review
 * was waiting for a code worker (an outputs window, the outputs of what an error closes) when the
 * engine stopped. Every other job reviews the parent in the batch that made such a child
 * terminal, so nothing else leaves this state behind. (A pending `else` branch is no sign: it may
 * be decidable long before the next review decides it.)
 */
export function reviewIfCutOff(proc: Process, task: Task): boolean {
  if (task.state !== 'running') return false;
  const children = proc.workChildren(task);
  if (children.length === 0) return false;
  if (children.every((c) => c.terminal)) return true;
  return task.kind === 'step' && children.some((c) => c.kind === 'branch' && c.state === 'pending' && asBranch(c.node).needs.length > 0 && neededDone(proc, c));
}
