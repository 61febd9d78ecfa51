/**
 * The one check of a typed answer (answer-fields.ts): what is wrong with the values an operator
 * gives, each problem with a stable code and a sentence naming the field by its title. The inbox
 * form shows these sentences before it sends; the engine refuses the same answer with
 * `action.answer_invalid` (`details.problems`) before anything changes; the server's upload
 * refuses a file with the same sentence. Blank values are not checked here: a required one is
 * `action.answer_required` (answers.ts), an optional one may stay blank.
 */
import { acceptsType, answerFields, formatBytes, isFileRef, type FieldSpec, type ItemSpec } from './answer-fields.ts';
import { isBlankAnswer } from './answers.ts';

export const ANSWER_PROBLEM_CODES = [
  'not_text',
  'not_number',
  'not_integer',
  'not_boolean',
  'not_date',
  'not_choice',
  'not_list',
  'not_file',
  'file_too_large',
  'file_type',
  'file_unknown',
] as const;

export type AnswerProblemCode = (typeof ANSWER_PROBLEM_CODES)[number];

export interface AnswerProblem {
  /** The answer key (the field). */
  field: string;
  code: AnswerProblemCode;
  /** One sentence naming the field by its title (a list's row by its number, from 1). */
  message: string;
  /** A list's row, from 0. */
  index?: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is an ISO calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export function isIsoDate(value: unknown): boolean {
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const listOf = (values: ReadonlyArray<unknown>) => values.map(String).join(', ');

/** What a value of kind `kind` must be, as the end of a sentence ("must be a number"). */
const MUST_BE: Record<ItemSpec['kind'] | 'multiline', [AnswerProblemCode, string]> = {
  text: ['not_text', 'must be text'],
  multiline: ['not_text', 'must be text'],
  number: ['not_number', 'must be a number'],
  integer: ['not_integer', 'must be a whole number'],
  boolean: ['not_boolean', 'must be yes or no (true or false)'],
  date: ['not_date', 'must be a date like 2026-12-31'],
  choice: ['not_choice', 'must be one of: '],
};

function fits(kind: ItemSpec['kind'] | 'multiline', value: unknown, choices?: ReadonlyArray<unknown>): boolean {
  switch (kind) {
    case 'text':
    case 'multiline':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return isIsoDate(value);
    case 'choice':
      return (choices ?? []).some((c) => c === value);
  }
}

/** The problem of one scalar value (a field's, or a list row's with `row`), or null. */
function scalarProblem(field: FieldSpec, spec: { kind: ItemSpec['kind'] | 'multiline'; choices?: ReadonlyArray<unknown> }, value: unknown, row?: number): AnswerProblem | null {
  if (fits(spec.kind, value, spec.choices)) return null;
  const [code, must] = MUST_BE[spec.kind];
  const who = row === undefined ? capital(field.title) : `Row ${row + 1} of ${field.title}`;
  const message = `${who} ${must}${spec.kind === 'choice' ? listOf(spec.choices ?? []) : ''}.`;
  return { field: field.key, code, message, ...(row === undefined ? {} : { index: row }) };
}

/** The problems of a file reference against its field (shape, size, type); the server also checks that it was uploaded for the task. */
export function fileProblems(field: FieldSpec, value: unknown): AnswerProblem[] {
  const title = capital(field.title);
  if (!isFileRef(value)) return [{ field: field.key, code: 'not_file', message: `${title} must be an uploaded file: the { file, name, size, type } its upload answered.` }];
  const problems: AnswerProblem[] = [];
  const max = field.maxBytes;
  if (max !== undefined && value.size > max) problems.push(fileTooLarge(field));
  if (!acceptsType(field.accept, value.type)) problems.push({ field: field.key, code: 'file_type', message: `${title} must be a file of type ${listOf(field.accept ?? [])}, not ${value.type || 'an unknown type'}.` });
  return problems;
}

/** The problem of a file above its field's `maxBytes` (the upload refuses it with this sentence too). */
export function fileTooLarge(field: FieldSpec): AnswerProblem {
  return { field: field.key, code: 'file_too_large', message: `${capital(field.title)} is larger than ${formatBytes(field.maxBytes ?? 0)}.` };
}

/** The problem of a file reference the server has no upload of for this task. */
export function fileUnknown(field: FieldSpec): AnswerProblem {
  return { field: field.key, code: 'file_unknown', message: `${capital(field.title)} names a file that was not uploaded for this task: upload it again.` };
}

function fieldProblems(field: FieldSpec, value: unknown): AnswerProblem[] {
  switch (field.kind) {
    case 'untyped':
      return [];
    case 'file':
      return fileProblems(field, value);
    case 'list': {
      if (!Array.isArray(value)) return [{ field: field.key, code: 'not_list', message: `${capital(field.title)} must be a list.` }];
      return value.flatMap((row, i) => scalarProblem(field, field.item!, row, i) ?? []);
    }
    default: {
      const problem = scalarProblem(field, { kind: field.kind, choices: field.choices }, value);
      return problem ? [problem] : [];
    }
  }
}

/**
 * What is wrong with `answers` against the typed fields of `params` (answer-fields.ts), in the
 * order the fields are declared; none when every given value fits. Keys without a typed field and
 * blank values (absent, null, blank text, an empty list) are not checked.
 */
export function answerProblems(params: unknown, answers: Record<string, unknown>): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  for (const field of answerFields(params).values()) {
    const value = Object.hasOwn(answers, field.key) ? answers[field.key] : undefined;
    if (isBlankAnswer(value) || (Array.isArray(value) && value.length === 0)) continue;
    problems.push(...fieldProblems(field, value));
  }
  return problems;
}

/** The problems as the one message of a refusal: their sentences in order. */
export function problemsSentence(problems: readonly AnswerProblem[]): string {
  return problems.map((p) => p.message).join(' ');
}
