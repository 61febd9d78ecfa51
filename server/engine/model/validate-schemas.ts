/**
 * `inputs_schema` and `exposes` must be JSON Schemas that ajv compiles (section 0.18, spec 5.12).
 * Results are cached by schema text, and every compiled schema is removed from ajv again so that
 * redeploying models does not grow its cache.
 */
import { Ajv } from 'ajv';
import { problem } from './problem.ts';
import type { JsonSchema, ModelProblem, Workflow } from './types.ts';

const CACHE_LIMIT = 256;
const verdicts = new Map<string, string | null>();
let ajv: Ajv | undefined;

/** Why `schema` does not compile, or `null` when it does. */
export function schemaError(schema: JsonSchema): string | null {
  const key = JSON.stringify(schema);
  const cached = verdicts.get(key);
  if (cached !== undefined) return cached;
  ajv ??= new Ajv({ strict: false, logger: false });
  let verdict: string | null = null;
  try {
    ajv.compile(schema);
  } catch (err) {
    verdict = err instanceof Error ? err.message : String(err);
  } finally {
    ajv.removeSchema(schema);
  }
  if (verdicts.size >= CACHE_LIMIT) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

export function schemaProblems(workflow: Workflow): ModelProblem[] {
  const problems: ModelProblem[] = [];
  for (const field of ['inputs_schema', 'exposes'] as const) {
    const schema = workflow[field];
    if (schema === undefined) continue;
    const error = schemaError(schema);
    if (error) problems.push(problem('model.bad_schema', field, `\`${field}\` is not a valid JSON Schema: ${error}`));
  }
  return problems;
}
