/**
 * Escalation of an open interrupt (`acts.core.escalate`, run in the timeout steps of an irq act,
 * spec 2.10): the act found no answer in time, so it is offered again — to other people when the
 * escalation names them (its assignment in the act's params is replaced), with a higher priority
 * when it names one — and the escalation is recorded in the act's params (`escalations`, oldest
 * first). The runtime rebuilds the task's inbox rows with the job's batch: whoever claimed it
 * no longer holds it (the escalation's `assignee`, if any, does). The interrupt stays open.
 * Stateless: what it changes is the act's params, written with its row.
 */
import type { EngineContext } from './context.ts';
import { ActError } from './errors.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';
import type { EscalateParams } from './packages/types.ts';
import { ASSIGNMENT_PARAMS, nameList } from '../../vocab/inbox-principals.ts';
import { type Escalation, type EscalationTarget } from '../../vocab/escalations.ts';

/** The new assignment an escalation names; null when it names no one (the candidates stay). */
export function escalationTarget(p: EscalateParams): EscalationTarget | null {
  const to: EscalationTarget = {
    assignee: nameList(p.assignee)[0] ?? null,
    candidate_users: nameList(p.candidate_users),
    candidate_groups: nameList(p.candidate_groups),
    roles: nameList(p.roles),
  };
  const names = to.candidate_users.length + to.candidate_groups.length + to.roles.length;
  return to.assignee || names > 0 ? to : null;
}

/** The open interrupt an escalate act works on: the nearest irq act above it still waiting. */
function escalatedTask(core: EngineContext, act: Task): Task {
  for (let t = act.parent; t; t = t.parent) {
    if (t.kind !== 'act' || t.state !== 'interrupted') continue;
    if (core.registry.get(asAct(t.node).uses)?.run_as === 'irq') return t;
  }
  throw new ActError(
    'escalate.no_task',
    `act '${act.node.id}' (acts.core.escalate) has no open interrupt above it to escalate: put it in the timeout steps of an irq act`,
  );
}

/** Escalates the open interrupt above `act` (see the module's comment); returns the escalation. */
export function escalate(core: EngineContext, proc: Process, act: Task, p: EscalateParams): Escalation {
  const target = escalatedTask(core, act);
  const params = { ...((target.params ?? {}) as Record<string, unknown>) };
  const to = escalationTarget(p);
  if (to) {
    for (const key of ASSIGNMENT_PARAMS) delete params[key];
    if (to.assignee) params.assignee = to.assignee;
    if (to.candidate_users.length > 0) params.candidate_users = to.candidate_users;
    if (to.candidate_groups.length > 0) params.candidate_groups = to.candidate_groups;
    if (to.roles.length > 0) params.roles = to.roles;
  }
  const priority = typeof p.priority === 'number' && Number.isFinite(p.priority) ? p.priority : null;
  if (priority !== null) params.priority = priority;
  const earlier = Array.isArray(params.escalations) ? (params.escalations as Escalation[]) : [];
  const key = asAct(act.node).key;
  const by = key && key !== act.node.id ? key : (act.parent?.node.id ?? act.node.id);
  const escalation: Escalation = { at: core.now(), by, reason: p.reason ?? '', to, priority, count: earlier.length + 1 };
  params.escalations = [...earlier, escalation];
  target.params = params;
  target.paramsReady = true;
  core.reoffer(proc, target);
  core.taskChanged(proc, target);
  return escalation;
}
