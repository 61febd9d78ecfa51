/**
 * Declared outcomes of an interrupt act (`acts.core.irq`): its params may carry
 * `outcomes: { <name>: { label?, ecode? } | null, … }`, the answers a person may choose (shown as
 * buttons). An outcome without `ecode` completes the act; one with `ecode` raises that ecode, which
 * the model's `catches` may catch — and when none does, the run ends on the outcome, not in error.
 * Either way the outcome's name is recorded as `outcome`. Shared by the engine (the params
 * schema, the `outcome` action) and the studio's inbox (the buttons).
 */

/** An outcome's name: a word a branch's `if` can compare (`outcome == 'reject'`). */
export const OUTCOME_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** The key of the outcome chosen, in the act's data and outputs, and in the outputs of a run that ended on one. */
export const OUTCOME_KEY = 'outcome';

export interface DeclaredOutcome {
  name: string;
  /** What its button says (the name when no label is given). */
  label: string;
  /** The ecode it raises; absent: it completes the act. */
  ecode?: string;
}

/** The JSON Schema of `params.outcomes` (part of the irq package's params schema). */
export const OUTCOMES_SCHEMA = {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: OUTCOME_NAME_PATTERN },
  additionalProperties: {
    type: ['object', 'null'],
    properties: { label: { type: 'string' }, ecode: { type: 'string', minLength: 1 } },
    additionalProperties: false,
  },
} as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The outcomes `params.outcomes` declares, in the order written; none when it declares none (or not as an object). */
export function declaredOutcomes(params: unknown): DeclaredOutcome[] {
  if (!isRecord(params) || !isRecord(params.outcomes)) return [];
  return Object.entries(params.outcomes).map(([name, spec]) => {
    const s = isRecord(spec) ? spec : {};
    const label = typeof s.label === 'string' && s.label.trim() ? s.label : name;
    return typeof s.ecode === 'string' && s.ecode !== '' ? { name, label, ecode: s.ecode } : { name, label };
  });
}
