/**
 * The required-answers check of `complete`/`submit` on an interrupt act (vocab/answers.ts): every
 * key its params' `schema.required` names needs a non-blank answer, or the action is refused
 * before anything changes (`action.answer_required`, naming the fields).
 */
import { blankRequiredAnswers } from '../../vocab/answers.ts';
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';

const IRQ = 'acts.core.irq';

export function requireAnswers(task: Task, options: Vars): void {
  const act = asAct(task.node);
  if (act.uses !== IRQ) return;
  const blank = blankRequiredAnswers(task.paramsReady ? task.params : act.params, options);
  if (blank.length === 0) return;
  const names = blank.map((k) => `'${k}'`).join(', ');
  throw new ActError(
    'action.answer_required',
    `act '${act.id || act.key}' needs an answer for ${names}: ${blank.length === 1 ? 'it is' : 'they are'} required and may not be empty or blank`,
    { fields: blank },
  );
}
