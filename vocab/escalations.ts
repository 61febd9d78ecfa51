/**
 * An escalation of an open interrupt (server/engine/escalation.ts): when, by which act, why, to
 * whom (null: the same candidates) and at which priority (null: unchanged). The act's params keep
 * them oldest first (`params.escalations`); its inbox rows carry what they changed (EscalatedParams).
 */
import { ASSIGNMENT_PARAMS } from './inbox-principals.ts';

/** Who an escalation gives the task to (the params of an irq act's assignment it replaces). */
export interface EscalationTarget {
  assignee: string | null;
  candidate_users: string[];
  candidate_groups: string[];
  roles: string[];
}

export interface Escalation {
  /** When it fired (epoch ms). */
  at: number;
  /** Where it ran: the `acts.core.escalate` act's key, else the id of its (timeout) step. */
  by: string;
  reason: string;
  to: EscalationTarget | null;
  priority: number | null;
  /** How many escalations the task had, this one included. */
  count: number;
}

/**
 * What escalations changed in an act's params: who may answer (the assignment params, all of them
 * as they are now: a missing one names no one), its priority and the escalations so far.
 */
export type EscalatedParams = Record<string, unknown> & { escalations: Escalation[] };

/** The params escalations changed, from an act's params; null when it was never escalated. */
export function escalatedParams(params: unknown): EscalatedParams | null {
  if (!lastEscalation(params)) return null;
  const p = params as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of [...ASSIGNMENT_PARAMS, 'priority']) if (p[key] !== undefined) picked[key] = p[key];
  return { ...picked, escalations: p.escalations as Escalation[] };
}

/** An act's params as it opened (its `created` message's) with what escalations changed since. */
export function withEscalations(params: unknown, escalated: EscalatedParams | null): unknown {
  if (!escalated) return params;
  const p: Record<string, unknown> = { ...((params ?? {}) as Record<string, unknown>) };
  for (const key of ASSIGNMENT_PARAMS) delete p[key];
  return { ...p, ...escalated };
}

/** The history entries' action of an escalation (the run page's task history). */
export const ESCALATE_ACTION = 'task.escalate';

/** Every escalation an act's params record, oldest first. */
export function escalationsOf(params: unknown): Escalation[] {
  const list = (params as { escalations?: unknown } | null)?.escalations;
  return Array.isArray(list) ? list.filter((e): e is Escalation => typeof (e as Partial<Escalation> | null)?.at === 'number') : [];
}

/** The last escalation an act's params record, or null. */
export function lastEscalation(params: unknown): Escalation | null {
  return escalationsOf(params).at(-1) ?? null;
}

/** An escalation in words, as the inbox and the run page tell it. */
export function escalationText(e: Escalation): string {
  const to = e.to
    ? [
        ...(e.to.assignee ? [`given to ${e.to.assignee}`] : []),
        ...(e.to.candidate_users.length > 0 ? [`offered to ${e.to.candidate_users.join(', ')}`] : []),
        ...(e.to.candidate_groups.length > 0 ? [`offered to group ${e.to.candidate_groups.join(', ')}`] : []),
        ...(e.to.roles.length > 0 ? [`offered to role ${e.to.roles.join(', ')}`] : []),
      ]
    : [];
  const parts = [...to, ...(e.priority === null ? [] : [`priority ${e.priority}`])];
  const what = parts.length > 0 ? parts.join(', ') : 'offered again';
  return e.reason ? `Escalated (${what}): ${e.reason}` : `Escalated: ${what}`;
}
