/**
 * The answers a notification e-mail offers as one-click links, from the act's params: its declared
 * outcomes (vocab/outcomes.ts) — except those that require a comment, which only the studio can
 * take — at most MAX_LINK_ACTIONS; an act that declares none gets `approve` (completes the act)
 * and `reject` (raises ecode `rejected`, as the inbox's reject does). Each becomes the engine
 * action the inbox would send.
 */
import { declaredOutcomes } from '../../vocab/outcomes.ts';

export const MAX_LINK_ACTIONS = 4;
/** The ecode of `reject` on an act without declared outcomes (the inbox's default). */
export const REJECT_ECODE = 'rejected';

export interface LinkAction {
  /** The name in the link (an outcome's, or approve / reject). */
  name: string;
  /** What the mail's button and the confirmation page say. */
  label: string;
  /** Whether it is the negative answer (shown as such). */
  negative: boolean;
}

export function linkActions(params: unknown): LinkAction[] {
  const outcomes = declaredOutcomes(params);
  if (outcomes.length === 0) {
    return [
      { name: 'approve', label: 'Approve', negative: false },
      { name: 'reject', label: 'Reject', negative: true },
    ];
  }
  return outcomes
    .filter((o) => o.comment !== 'required')
    .slice(0, MAX_LINK_ACTIONS)
    .map((o) => ({ name: o.name, label: o.label, negative: o.ecode !== undefined }));
}

/** The engine action that gives `name`'s answer to the act (null: the act offers no such answer by link now). */
export function engineAction(params: unknown, name: string): { action: 'complete' | 'error' | 'outcome'; options: Record<string, unknown> } | null {
  if (!linkActions(params).some((a) => a.name === name)) return null;
  if (declaredOutcomes(params).length > 0) return { action: 'outcome', options: { outcome: name } };
  return name === 'approve' ? { action: 'complete', options: {} } : { action: 'error', options: { ecode: REJECT_ECODE } };
}
