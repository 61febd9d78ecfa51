/**
 * The inbox: interrupt tasks (acts waiting for an answer) and who may answer them. Open tasks
 * come from the store's task rows (`state = interrupted`, at most `INBOX_SCAN` oldest first);
 * what they ask (title, assignees, model) comes from their `created` messages.
 */
import type { Caller } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import type { MessageRow, Store } from '../engine/store/types.ts';
import { assignmentOf, mayAct, type Assignment } from './inbox-access.ts';

export const INBOX_SCAN = 1000;
const CHUNK = 50;

export interface InboxItem {
  pid: string;
  tid: string;
  nid: string;
  key: string;
  name: string;
  uses: string;
  mid: string;
  model_name: string;
  params: unknown;
  assignment: Assignment;
  /** The step the task belongs to, as its `created` message names it (not on live `added` events). */
  step?: StepRef | null;
  start_time: number;
}

export interface StepRef {
  tid: string;
  id: string;
  name: string;
}

/** A step as the inbox names it (its name, else its id). */
export const stepRef = (tid: string, id: string, name: string): StepRef => ({ tid, id, name: name || id });

/** The step an act message names in `inputs.step` (engine messages.ts), or null. */
function messageStep(inputs: Record<string, unknown>): StepRef | null {
  const step = inputs.step as { node_id?: unknown; node_name?: unknown; task_id?: unknown } | undefined;
  if (!step || typeof step.task_id !== 'string' || typeof step.node_id !== 'string') return null;
  return stepRef(step.task_id, step.node_id, typeof step.node_name === 'string' ? step.node_name : '');
}

/** The inbox item a `created` irq message describes. */
export function inboxItem(m: Pick<MessageRow, 'pid' | 'tid' | 'nid' | 'key' | 'name' | 'uses' | 'mid' | 'model' | 'inputs' | 'start_time'>): InboxItem {
  const params = m.inputs.params ?? null;
  return {
    pid: m.pid,
    tid: m.tid,
    nid: m.nid,
    key: m.key,
    name: m.name,
    uses: m.uses,
    mid: m.mid,
    model_name: m.model.name,
    params,
    assignment: assignmentOf(params),
    step: messageStep(m.inputs),
    start_time: m.start_time,
  };
}

/** Every open interrupt task (up to INBOX_SCAN), oldest first. */
export async function openInbox(engine: Engine, store: Store): Promise<InboxItem[]> {
  await engine.flush();
  const tasks = await store.queries.interruptedActs(INBOX_SCAN);
  const items: InboxItem[] = [];
  for (let i = 0; i < tasks.length; i += CHUNK) {
    const pairs = tasks.slice(i, i + CHUNK).map((t) => ({ pid: t.pid, tid: t.tid }));
    const messages = await store.queries.createdActMessagesOf(pairs);
    const byKey = new Map(messages.map((m) => [`${m.pid}/${m.tid}`, m]));
    for (const p of pairs) {
      const m = byKey.get(`${p.pid}/${p.tid}`);
      if (m) items.push(inboxItem(m));
    }
  }
  return items;
}

/** The open interrupt tasks this caller may act on. */
export async function inboxOf(engine: Engine, store: Store, caller: Caller): Promise<InboxItem[]> {
  return (await openInbox(engine, store)).filter((item) => mayAct(caller, item.assignment));
}
