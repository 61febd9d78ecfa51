/**
 * The inbox: interrupt tasks (acts waiting for an answer) and who may answer them. The read
 * model (`engine.reads.inbox`) pages the tasks a caller may act on in the store, filtered by their
 * assignment and who holds them (claims.ts); what they ask (title, assignees, model) comes from
 * their `created` messages. Views (INBOX_VIEWS): `mine` — held by the caller; `groups` — offered
 * to the caller (by name, role, group, or to every operator) and held by no one; `all` — every
 * task the caller may see, whoever holds it.
 */
import type { Caller } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import type { InboxTask } from '../runtime/read-model-types.ts';
import { assignmentOf, inboxPrincipals, type Assignment } from './inbox-access.ts';
import { NEVER_DUE, type InboxHold, type InboxSchedule } from '../runtime/read-model-types.ts';

/** A moment as the API shows it: null for never. */
const shownMoment = (ms: number): number | null => (ms >= NEVER_DUE ? null : ms);
import { EVERY_TASK } from '../../vocab/inbox-principals.ts';
import { lastEscalation, withEscalations, type Escalation } from '../../vocab/escalations.ts';
import { INBOX_VIEWS, type InboxView } from '../../vocab/inbox-views.ts';

export { INBOX_VIEWS, type InboxView };

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
  /** Who holds it (absent on live `added` events: no one, or its assignee). */
  hold?: InboxHold;
  /** When it is due (epoch ms; null: never), when to follow it up, how urgent (higher first; absent on live events). */
  due_time?: number | null;
  follow_up?: number | null;
  priority?: number;
  /** Its last escalation (its params above are as the escalations left them); absent: never escalated. */
  escalation?: Escalation;
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

/** The inbox item a `created` irq message describes (with its hold, read from its inbox row). */
export function inboxItem(m: InboxTask & Partial<InboxSchedule> & { hold?: InboxHold }): InboxItem {
  const params = withEscalations(m.inputs.params ?? null, m.escalated ?? null);
  const escalation = lastEscalation(params);
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
    ...(m.hold ? { hold: m.hold } : {}),
    ...(escalation ? { escalation } : {}),
    ...(m.due_time === undefined ? {} : { due_time: shownMoment(m.due_time), follow_up: shownMoment(m.follow_up ?? NEVER_DUE), priority: m.priority }),
  };
}

/** Which page of an inbox: earliest start first, or `newestFirst`; only tasks of model `mid` if given. */
export interface InboxPageRequest {
  mid?: string;
  /** Which tasks (default `all`). */
  view?: InboxView;
  /** Only the overdue ones (due before now). */
  overdue?: boolean;
  order?: 'start' | 'due' | 'priority';
  offset: number;
  limit: number;
  newestFirst?: boolean;
}

/** One page of the open interrupt tasks this caller may act on, and how many there are. */
export async function inboxOf(engine: Engine, caller: Caller, { view = 'all', overdue, ...page }: InboxPageRequest): Promise<{ count: number; items: InboxItem[] }> {
  const principals = inboxPrincipals(caller);
  // all: also what was given or delegated to the caller, though offered to others
  const all = principals.length > 0 && !principals.includes(EVERY_TASK) ? { principals, alsoHeldBy: caller.name } : { principals };
  const whose = view === 'mine' ? { principals: principals.length > 0 ? [EVERY_TASK] : [], holder: caller.name } : view === 'groups' ? { principals, holder: null } : all;
  const { count, tasks } = await engine.reads.inbox({ ...whose, ...page, ...(overdue ? { dueBefore: engine.now() } : {}) });
  return { count, items: tasks.map(inboxItem) };
}
