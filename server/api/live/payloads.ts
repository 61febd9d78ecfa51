/**
 * What the live channel sends. Every event carries a `cursor` (epoch ms on the sending instance,
 * see catch-up.ts); values that can grow (variables, params, outputs) are capped at
 * `VALUE_BYTES` each, so one event stays far below the PostgreSQL NOTIFY limit of 8000 bytes.
 */
import type { Assignment } from '../inbox-access.ts';
import type { InboxItem } from '../inbox-query.ts';
import type { InboxHold } from '../../runtime/read-model-types.ts';
import type { Message } from '../../engine/messages.ts';
import type { TaskInfo } from '../../runtime/info.ts';
import type { ControlView } from '../../../vocab/control.ts';

export const VALUE_BYTES = 2048;

/** A value as is when small, else a marker with its size and the start of its JSON text. */
export function capValue(value: unknown, max = VALUE_BYTES): unknown {
  const text = JSON.stringify(value ?? null) ?? 'null';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= max) return value ?? null;
  return { $truncated: true, bytes, preview: text.slice(0, 256) };
}

export interface TaskEvent {
  pid: string;
  tid: string;
  nid: string;
  kind: string;
  key: string;
  name: string;
  uses: string;
  state: string;
  parent: string | null;
  start_time: number;
  end_time: number;
  cursor: number;
}

export type TaskFields = Pick<TaskInfo, 'pid' | 'tid' | 'nid' | 'kind' | 'key' | 'name' | 'uses' | 'state' | 'parent' | 'start_time' | 'end_time'>;

export function taskEvent(t: TaskFields, cursor: number): TaskEvent {
  return { pid: t.pid, tid: t.tid, nid: t.nid, kind: t.kind, key: t.key, name: t.name, uses: t.uses, state: t.state, parent: t.parent, start_time: t.start_time, end_time: t.end_time, cursor };
}

export type ProcessChange = 'started' | 'completed' | 'errored' | 'aborted';

export interface ProcessEvent {
  pid: string;
  mid: string;
  change: ProcessChange;
  state: string;
  outputs: unknown;
  err: unknown;
  /** The declared outcome the run ended on (state `completed`); null for any other end and at the start. */
  outcome: string | null;
  cursor: number;
}

export function processEvent(m: Message, change: ProcessChange, cursor: number, outcome: string | null = null): ProcessEvent {
  const err = m.inputs.ecode !== undefined ? { ecode: m.inputs.ecode, message: capValue(m.inputs.message, 512) } : null;
  return { pid: m.pid, mid: m.mid, change, state: m.state, outputs: capValue(m.outputs), err, outcome, cursor };
}

/** A process's control changed (paused, resumed, breakpoints, incidents; vocab/control.ts). */
export interface ControlEvent {
  pid: string;
  control: ControlView;
  cursor: number;
}

export interface MessageEvent {
  id: string;
  pid: string;
  tid: string;
  nid: string;
  mid: string;
  type: string;
  state: string;
  key: string;
  uses: string;
  name: string;
  inputs: unknown;
  outputs: unknown;
  create_time: number;
  cursor: number;
}

export function messageEvent(m: Omit<Message, 'retry_times'> | Message, cursor: number): MessageEvent {
  return {
    id: m.id,
    pid: m.pid,
    tid: m.tid,
    nid: m.nid,
    mid: m.mid,
    type: m.type,
    state: m.state,
    key: m.key,
    uses: m.uses,
    name: m.name,
    inputs: capValue(m.inputs),
    outputs: capValue(m.outputs),
    create_time: m.create_time,
    cursor,
  };
}

export interface InboxEvent {
  /** `held`: the task changed hands (claimed, released, delegated, reassigned: `hold`); `commented`: it got a comment; `voted`: a vote (vocab/quorum.ts) that left it open. */
  change: 'added' | 'removed' | 'held' | 'commented' | 'voted';
  pid: string;
  tid: string;
  item: (Omit<InboxItem, 'params'> & { params: unknown }) | null;
  hold?: InboxHold;
  cursor: number;
}

export function inboxEvent(change: 'added' | 'removed', pid: string, tid: string, item: InboxItem | null, cursor: number): InboxEvent {
  return { change, pid, tid, item: item ? { ...item, params: capValue(item.params) } : null, cursor };
}

export function inboxTaskEvent(change: 'held' | 'commented' | 'voted', pid: string, tid: string, cursor: number, hold?: InboxHold): InboxEvent {
  const shown = hold ? { hold: { ...hold, proposal: hold.proposal ? (capValue(hold.proposal) as Record<string, unknown>) : null } } : {};
  return { change, pid, tid, item: null, ...shown, cursor };
}

export type { Assignment };
