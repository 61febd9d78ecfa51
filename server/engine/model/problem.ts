/** The helper that builds a problem (the codes: vocab/model-problems.ts); a warning code gets its severity. */
import { WARNING_CODES, type ModelProblem, type ProblemCode } from '../../../vocab/model-problems.ts';

export function problem(code: ProblemCode, path: string, message: string): ModelProblem {
  return WARNING_CODES.has(code) ? { code, message, path, severity: 'warning' } : { code, message, path };
}
