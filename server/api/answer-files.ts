/**
 * The server's half of checking a typed answer (the engine checks the values themselves:
 * engine/required-answers.ts): a file reference in the answer of `complete`, `submit` or
 * `outcome` must name a file uploaded for this task and field, as its upload answered it (same
 * name, size and type) — else `action.answer_invalid` with the `file_unknown` problem, before the
 * action reaches the engine.
 */
import { answerFields, isFileRef } from '../../vocab/answer-fields.ts';
import { fileUnknown, problemsSentence, type AnswerProblem } from '../../vocab/answer-problems.ts';
import { ActError } from '../engine/errors.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Engine } from '../runtime/engine.ts';

const ANSWERING = new Set(['complete', 'submit', 'outcome']);

export async function requireUploadedFiles(engine: Engine, pid: string, tid: string, action: string, options: Vars): Promise<void> {
  if (!ANSWERING.has(action) || !Object.values(options).some(isFileRef)) return;
  const task = await engine.tasks.get(pid, tid);
  const problems: AnswerProblem[] = [];
  for (const field of answerFields(task.params).values()) {
    const ref = options[field.key];
    if (field.kind !== 'file' || !isFileRef(ref)) continue;
    const row = await engine.files.get(ref.file);
    const same = row && row.pid === pid && row.tid === tid && row.field === field.key && row.name === ref.name && row.size === ref.size && row.type === ref.type;
    if (!same) problems.push(fileUnknown(field));
  }
  if (problems.length > 0) throw new ActError('action.answer_invalid', problemsSentence(problems), { problems });
}
