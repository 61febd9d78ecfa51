/**
 * The `outcome` client action on an interrupt act with declared outcomes (vocab/outcomes.ts): the
 * chosen outcome must be one the act declares, or the action is refused before anything changes
 * (`action.unknown_outcome`); one declared with `comment: required` needs a non-blank option
 * `comment` (`action.comment_required`, the sentence the inbox shows). It then stands for
 * `complete` (no ecode; the outcome's name joins the answers as `outcome`, a given comment as
 * `comment`) or for `error` with the outcome's ecode (the name rides on the error, so an uncaught
 * one ends the run on the outcome: flow.ts `failNow`; the comment is the error's message unless a
 * `message` is given).
 */
import { isBlankAnswer } from '../../vocab/answers.ts';
import { commentRequiredSentence, COMMENT_KEY, declaredOutcomes, OUTCOME_KEY, type DeclaredOutcome } from '../../vocab/outcomes.ts';
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
  /** The comment given with it (trimmed), when the outcome takes one. */
  comment?: string;
}

/** The comment given with `outcome`: refused when it requires one and none is given. */
function commentOf(name: string, outcome: DeclaredOutcome, options: Vars): string | undefined {
  const given = options[COMMENT_KEY];
  if (given !== undefined && given !== null && typeof given !== 'string') {
    throw new ActError('action.invalid_options', `option '${COMMENT_KEY}' of act '${name}' is text`);
  }
  if (outcome.comment === 'required' && isBlankAnswer(given)) {
    throw new ActError('action.comment_required', commentRequiredSentence(outcome), { outcome: outcome.name });
  }
  return outcome.comment !== undefined && typeof given === 'string' && given.trim() !== '' ? given.trim() : undefined;
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
  const comment = commentOf(name, outcome, options);
  const noted = comment === undefined ? {} : { comment };
  if (outcome.ecode === undefined) return { action: 'next', options, outcome: outcome.name, ...noted };
  const message = typeof options.message === 'string' && options.message.trim() ? options.message : (comment ?? `the outcome '${outcome.label}' was chosen`);
  return { action: 'error', options: { ...options, ecode: outcome.ecode, message, ...noted }, outcome: outcome.name, ...noted };
}
