/**
 * The answer checks of `complete`/`submit` on an interrupt act, before anything changes:
 * - every key its params' `schema.required` names needs a non-blank answer (vocab/answers.ts),
 *   else `action.answer_required`, naming the fields (`details.fields`);
 * - every given value must fit its typed field (vocab/answer-fields.ts), else
 *   `action.answer_invalid` whose message is the problems' sentences, each problem in
 *   `details.problems` (`{ field, code, message, index? }`, vocab/answer-problems.ts) — the same
 *   sentences the inbox form shows before it sends.
 * Whether an answer's file was uploaded for the task is the server's check (server/api/answer-files.ts).
 */
import { answerProblems, problemsSentence } from '../../vocab/answer-problems.ts';
import { blankRequiredAnswers } from '../../vocab/answers.ts';
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';

const IRQ = 'acts.core.irq';

export function requireAnswers(task: Task, options: Vars): void {
  const act = asAct(task.node);
  if (act.uses !== IRQ) return;
  const params = task.paramsReady ? task.params : act.params;
  const blank = blankRequiredAnswers(params, options);
  if (blank.length > 0) {
    const names = blank.map((k) => `'${k}'`).join(', ');
    throw new ActError(
      'action.answer_required',
      `act '${act.id || act.key}' needs an answer for ${names}: ${blank.length === 1 ? 'it is' : 'they are'} required and may not be empty or blank`,
      { fields: blank },
    );
  }
  const problems = answerProblems(params, options);
  if (problems.length > 0) throw new ActError('action.answer_invalid', problemsSentence(problems), { problems });
}
