/** Builds the message a task event produces (spec 3.3, 3.4). */
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import { messageStateOf, type TaskState } from '../../vocab/states.ts';
import type { Task } from './task.ts';
import { asAct, asWorkflow, nodeKey } from './tree/node.ts';

/** What a message says (spec 3.3): the task, its process and model, its state and data. */
export interface MessageFields {
  id: string;
  pid: string;
  tid: string;
  nid: string;
  mid: string;
  name: string;
  type: string;
  state: string;
  key: string;
  uses: string;
  tag: string;
  model: { id: string; name: string; tag: string };
  inputs: Vars;
  outputs: Vars;
  start_time: number;
  end_time: number;
  create_time: number;
  timestamp: number;
}

/** A message as channels receive it. */
export interface Message extends MessageFields {
  /** Redelivery counter. */
  retry_times: number;
  /** Id of the delivery row of an ack channel; acknowledge with it. */
  delivery_id?: string;
}

/** Whether a task event in its current state produces a message. */
export function emitsMessage(task: Task): boolean {
  return emitsMessageIn(task, task.state);
}

/** Whether the task would produce a message in `state` (for outputs evaluated ahead: closing.ts). */
export function emitsMessageIn(task: Task, state: TaskState): boolean {
  if (task.kind === 'branch') return false;
  if (state === 'none' || state === 'pending' || state === 'running') return false;
  if (task.kind === 'act' && state === 'skipped') return true;
  return !task.emitDisabled;
}

function enclosingStep(task: Task): Task | null {
  for (let t = task.parent; t; t = t.parent) if (t.kind === 'step') return t;
  return null;
}

function messageInputs(task: Task): Vars {
  const inputs: Vars = { ...task.inputs };
  if (task.kind === 'act') {
    const step = enclosingStep(task);
    if (step) inputs.step = { node_id: step.node.id, node_name: step.node.content.name, task_id: step.tid };
    if (Object.keys(task.options).length > 0) inputs.options = task.options;
    if (task.paramsReady && task.params != null) inputs.params = task.params;
  }
  if (task.err) {
    inputs.ecode = task.err.ecode;
    inputs.message = task.err.message;
  }
  return inputs;
}

export function buildMessage(proc: Process, task: Task, id: string, outputs: Vars, now: number): Message {
  const wf = asWorkflow(proc.tree.root);
  return {
    id,
    pid: proc.pid,
    tid: task.tid,
    nid: task.node.id,
    mid: proc.mid,
    name: task.node.content.name,
    type: task.kind,
    state: messageStateOf(task.state),
    key: nodeKey(task.node),
    uses: task.kind === 'act' ? asAct(task.node).uses : '',
    tag: task.node.content.tag,
    model: { id: wf.id, name: wf.name, tag: wf.tag },
    inputs: messageInputs(task),
    outputs,
    start_time: task.startTime,
    end_time: task.endTime,
    create_time: now,
    timestamp: now,
    retry_times: 0,
  };
}
