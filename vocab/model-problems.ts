/**
 * Model problems: what parsing and validating a workflow model reports (the engine's validator,
 * `model.invalid` details, the designer's own YAML parse), with the one list of their stable codes.
 */

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
  'model.invalid_params',
  'model.package_off',
  'model.bad_outcomes',
  'model.bad_answer_form',
  'model.unknown_trigger',
  'model.bad_expression',
  'model.bad_schema',
  'model.nul',
  'model.loop_without_wait',
  'model.unknown_secret',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** Codes of warnings: the model is valid and deploys all the same. */
export const WARNING_CODES: ReadonlySet<ProblemCode> = new Set<ProblemCode>(['model.loop_without_wait', 'model.unknown_secret']);

/** Where a problem sits in the source document (1-based). */
export interface SourcePosition {
  line: number;
  col: number;
}

/** One problem found while parsing or validating a model. */
export interface ModelProblem {
  /** Stable code (PROBLEM_CODES), e.g. `yaml.syntax`, `model.duplicate_id`, `model.unknown_next`. */
  code: string;
  message: string;
  /** Path in the document, e.g. `steps[1].acts[0].uses`; empty for the document itself. */
  path: string;
  position?: SourcePosition;
  /** Set on a warning (WARNING_CODES): the model is valid and deploys. */
  severity?: 'warning';
}
