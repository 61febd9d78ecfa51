/**
 * The saved step tests of a model: its document's top-level `tests:` list (vocab/step-tests.ts),
 * read from the source text and checked field by field. Every problem names its path and, in YAML,
 * its line and column; a document with any problem yields no cases (`steptest.invalid`).
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { formatPath } from '../../engine/model/paths.ts';
import { readSource } from '../../engine/model/read.ts';
import type { SourcePosition } from '../../engine/model/types.ts';
import { ANSWER_ACTIONS, STEP_TEST_LIMITS, TESTS_FIELD, type StepTestCase } from '../../../vocab/step-tests.ts';

export interface CaseProblem {
  path: string;
  message: string;
  position?: SourcePosition;
}

const record = z.record(z.string(), z.unknown(), { error: 'expected a mapping of names to values' });
const answer = z.strictObject(
  {
    action: z.enum(ANSWER_ACTIONS, { error: `expected one of ${ANSWER_ACTIONS.join(', ')}` }).optional(),
    options: record.optional(),
  },
  { error: 'expected an answer: { action, options }' },
);
const text = (what: string) => z.string({ error: `expected ${what} (text)` }).min(1, `${what} is empty`);

/** The fields of an input to run (shared with the API's zod input). */
export const runInputFields = {
  node: text('the node id').max(200),
  inputs: record.optional(),
  answers: z.record(z.string(), z.union([answer, z.array(answer).max(STEP_TEST_LIMITS.answers)], { error: 'expected an answer or a list of answers' })).optional(),
};

export const expectSchema = z.strictObject(
  {
    outputs: record.optional(),
    vars: record.optional(),
    state: z.string().min(1).optional(),
    /** '' matches an error without a code (a script that threw). */
    error: z.string().max(200).optional(),
  },
  { error: 'expected a mapping of expectations (outputs, vars, state, error)' },
);

export const caseSchema = z.strictObject(
  { name: text('the case name').max(STEP_TEST_LIMITS.nameChars), ...runInputFields, expect: expectSchema.optional() },
  { error: 'expected a test case (a mapping with name, node, inputs, answers, expect)' },
);

const casesSchema = z.array(caseSchema, { error: `expected \`${TESTS_FIELD}\` to be a list of test cases` }).max(STEP_TEST_LIMITS.cases, `at most ${STEP_TEST_LIMITS.cases} test cases`);

/** The problems of `tests:` in a document's plain data (paths start at `tests`). */
export function caseProblems(data: unknown): { cases: StepTestCase[]; problems: CaseProblem[] } {
  const raw = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>)[TESTS_FIELD] : undefined;
  if (raw === undefined || raw === null) return { cases: [], problems: [] };
  const parsed = casesSchema.safeParse(raw);
  if (!parsed.success) {
    return { cases: [], problems: parsed.error.issues.map((issue) => ({ path: formatPath([TESTS_FIELD, ...issue.path]), message: issue.message })) };
  }
  const seen = new Set<string>();
  const problems: CaseProblem[] = [];
  parsed.data.forEach((c, i) => {
    if (seen.has(c.name)) problems.push({ path: formatPath([TESTS_FIELD, i, 'name']), message: `two test cases are named '${c.name}': give each its own name` });
    seen.add(c.name);
  });
  return { cases: problems.length ? [] : parsed.data, problems };
}

/** One line per problem: `file:line:col: message (at path)`. */
export function formatCaseProblem(p: CaseProblem, file: string): string {
  const at = p.position ? `${file}:${p.position.line}:${p.position.col}` : file;
  return `${at}: ${p.message} (at ${p.path})`;
}

/** The saved cases of a model source; throws `steptest.invalid` (details: the problems) when any is malformed. */
export function readCases(source: string): StepTestCase[] {
  const { data, problems: syntax, locate } = readSource(source);
  if (syntax.length) throw new ActError('model.invalid', `the model cannot be read: ${syntax[0].message}`, syntax);
  const { cases, problems } = caseProblems(data);
  if (problems.length) {
    const located = problems.map((p) => ({ ...p, position: locate(p.path) }));
    const more = located.length > 1 ? ` (and ${located.length - 1} more)` : '';
    throw new ActError('steptest.invalid', `the saved test cases are malformed: ${located[0].message} at ${located[0].path}${more}`, located);
  }
  return cases;
}
