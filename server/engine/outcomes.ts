/**
 * The `outcome` client action on an interrupt act with declared outcomes (vocab/outcomes.ts): the
 * chosen outcome must be one the act declares, or the action is refused before anything changes
 * (`action.unknown_outcome`). It then stands for `complete` (no ecode; the outcome's name joins
 * the answers as `outcome`) or for `error` with the outcome's ecode (the name rides on the error,
 * so an uncaught one ends the run on the outcome: flow.ts `failNow`).
 */
import { declaredOutcomes, OUTCOME_KEY } from '../../vocab/outcomes.ts';
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';

const IRQ = 'acts.core.irq';

/** What an `outcome` action does: the action it stands for, with its options, and the outcome's name. */
export interface ChosenOutcome {
  action: 'next' | 'error';
  options: Vars;
  outcome: string;
}

export function chooseOutcome(task: Task, options: Vars): ChosenOutcome {
  const act = asAct(task.node);
  const name = act.id || act.key;
  const declared = act.uses === IRQ ? declaredOutcomes(task.paramsReady ? task.params : act.params) : [];
  if (declared.length === 0) {
    throw new ActError('action.refused', `act '${name}' declares no outcomes: answer it with complete, error, back or skip`);
  }
  const choices = declared.map((o) => `'${o.name}'`).join(', ');
  const chosen = options[OUTCOME_KEY];
  if (typeof chosen !== 'string' || chosen === '') {
    throw new ActError('action.invalid_options', `outcome needs option '${OUTCOME_KEY}': one of ${choices}`);
  }
  const outcome = declared.find((o) => o.name === chosen);
  if (!outcome) {
    throw new ActError('action.unknown_outcome', `act '${name}' has no outcome '${chosen}': choose one of ${choices}`, { outcomes: declared.map((o) => o.name) });
  }
  if (outcome.ecode === undefined) return { action: 'next', options, outcome: outcome.name };
  const message = typeof options.message === 'string' && options.message.trim() ? options.message : `the outcome '${outcome.label}' was chosen`;
  return { action: 'error', options: { ...options, ecode: outcome.ecode, message }, outcome: outcome.name };
}
