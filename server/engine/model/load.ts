/** `loadModel`: parse and validate in one call, with source positions on every problem. */
import { parseSource, type ParseOptions, type ParseResult } from './parse.ts';
import type { ValidateContext } from './validate-context.ts';
import { validateWorkflow } from './validate.ts';

/**
 * Parses `source` and, when it parses, validates it for deploy. `workflow` is set only when there
 * is no problem at all, so a caller can deploy whatever it gets.
 */
export function loadModel(source: string, ctx?: ValidateContext, options?: ParseOptions): ParseResult {
  const parsed = parseSource(source, options);
  if (!parsed.workflow) return { problems: parsed.problems };
  const problems = validateWorkflow(parsed.workflow, ctx, parsed.locate);
  return problems.length ? { problems } : { workflow: parsed.workflow, problems };
}
