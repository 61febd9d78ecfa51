/**
 * Declared outcomes of an interrupt act (`acts.core.irq`): its params may carry
 * `outcomes: { <name>: { label?, ecode?, comment? } | null, … }`, the answers a person may choose
 * (shown as buttons). An outcome without `ecode` completes the act; one with `ecode` raises that
 * ecode, which the model's `catches` may catch — and when none does, the run ends on the outcome,
 * not in error. Either way the outcome's name is recorded as `outcome`. `comment: required` asks
 * for a non-blank comment with the choice (`comment: optional` offers one): it is recorded as
 * `comment`. Shared by the engine (the params schema, the `outcome` action) and the studio's inbox
 * (the buttons, the comment box).
 */

/** An outcome's name: a word a branch's `if` can compare (`outcome == 'reject'`). */
export const OUTCOME_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

/** The key of the outcome chosen, in the act's data and outputs, and in the outputs of a run that ended on one. */
export const OUTCOME_KEY = 'outcome';

/** The key of the comment given with an outcome, in the `outcome` action's options and the act's data and outputs. */
export const COMMENT_KEY = 'comment';

/** Whether an outcome asks for a comment: `required` (not blank), `optional`. */
export const COMMENT_MODES = ['required', 'optional'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

export interface DeclaredOutcome {
  name: string;
  /** What its button says (the name when no label is given). */
  label: string;
  /** The ecode it raises; absent: it completes the act. */
  ecode?: string;
  /** Whether choosing it asks for a comment; absent: it takes none. */
  comment?: CommentMode;
}

/** The sentence that asks for the comment an outcome requires (the inbox shows it, the engine refuses with it). */
export function commentRequiredSentence(outcome: Pick<DeclaredOutcome, 'label'>): string {
  return `${outcome.label} needs a comment: say why in a few words.`;
}

/** The JSON Schema of `params.outcomes` (part of the irq package's params schema). */
export const OUTCOMES_SCHEMA = {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: OUTCOME_NAME_PATTERN },
  additionalProperties: {
    type: ['object', 'null'],
    title: 'Outcome',
    properties: {
      label: { type: 'string', title: 'Button label', description: 'What its button says (the name when empty)' },
      ecode: { type: 'string', minLength: 1, title: 'Error code', description: 'Raised when chosen, for a catch; empty: the act completes' },
      comment: { enum: COMMENT_MODES, title: 'Comment', description: 'required: the choice needs a comment (recorded as comment); optional: one may be given' },
    },
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
    const comment = (COMMENT_MODES as readonly unknown[]).includes(s.comment) ? { comment: s.comment as CommentMode } : {};
    return typeof s.ecode === 'string' && s.ecode !== '' ? { name, label, ecode: s.ecode, ...comment } : { name, label, ...comment };
  });
}

/** A problem of a declared `outcomes` map: where (segments under `params`) and a sentence saying what to write. */
export interface OutcomesProblem {
  at: Array<string>;
  message: string;
}

const EXAMPLE = 'e.g. `outcomes: { approve: {}, reject: { ecode: rejected, comment: required } }`';
const OUTCOME_FIELDS = ['label', 'ecode', 'comment'];
const NAME = new RegExp(OUTCOME_NAME_PATTERN);

/** What is wrong with `params.outcomes` as written (none when it is absent, right, or decided by a template). */
export function outcomesProblems(params: unknown): OutcomesProblem[] {
  if (!isRecord(params) || params.outcomes === undefined) return [];
  const outcomes = params.outcomes;
  if (typeof outcomes === 'string' && outcomes.includes('{{')) return [];
  if (!isRecord(outcomes)) return [{ at: ['outcomes'], message: `\`outcomes\` maps each outcome's name to its label and ecode, ${EXAMPLE}` }];
  const entries = Object.entries(outcomes);
  if (entries.length === 0) return [{ at: ['outcomes'], message: `\`outcomes\` declares no outcome: name at least one (${EXAMPLE}) or leave it out` }];
  const problems: OutcomesProblem[] = [];
  for (const [name, spec] of entries) {
    const at = ['outcomes', name];
    if (!NAME.test(name)) problems.push({ at, message: `outcome name '${name}' is not a word: use letters, digits and _ (not a digit first), e.g. needs_changes` });
    if (spec === null) continue;
    if (!isRecord(spec)) {
      problems.push({ at, message: `outcome '${name}' must be { label, ecode, comment } or empty (\`${name}: {}\`)` });
      continue;
    }
    for (const key of Object.keys(spec)) {
      if (!OUTCOME_FIELDS.includes(key)) problems.push({ at: [...at, key], message: `outcome '${name}' has an unknown field '${key}': an outcome takes \`label\`, \`ecode\` and \`comment\`` });
    }
    if (spec.label !== undefined && typeof spec.label !== 'string') problems.push({ at: [...at, 'label'], message: `outcome '${name}': \`label\` is the text of its button` });
    if (spec.ecode !== undefined && (typeof spec.ecode !== 'string' || spec.ecode === '')) {
      problems.push({ at: [...at, 'ecode'], message: `outcome '${name}': \`ecode\` is the non-empty code it raises for \`catches\`; leave it out to complete the act instead` });
    }
    if (spec.comment !== undefined && !(COMMENT_MODES as readonly unknown[]).includes(spec.comment)) {
      problems.push({ at: [...at, 'comment'], message: `outcome '${name}': \`comment\` is ${COMMENT_MODES.join(' or ')} (leave it out for none)` });
    }
  }
  return problems;
}
