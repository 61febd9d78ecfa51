/** Stable problem codes and the helper that builds a problem. */
import type { ModelProblem } from './types.ts';

export const PROBLEM_CODES = [
  'yaml.syntax',
  'json.syntax',
  'model.not_object',
  'model.type',
  'model.missing_id',
  'model.duplicate_id',
  'model.empty_trigger_id',
  'model.missing_uses',
  'model.unknown_next',
  'model.bad_timeout',
  'model.bad_cron',
  'model.bad_timezone',
  'model.unknown_needs',
  'model.needs_cycle',
  'model.bad_hook',
  'model.unknown_package',
  'model.unknown_trigger',
  'model.bad_expression',
  'model.bad_schema',
  'model.nul',
  // a warning: the model deploys all the same (loop-warnings.ts)
  'model.loop_without_wait',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

export function problem(code: ProblemCode, path: string, message: string): ModelProblem {
  return { code, message, path };
}
