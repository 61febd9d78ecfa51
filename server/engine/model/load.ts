/** `loadModel`: parse and validate in one call, with source positions on every problem. */
import { parseSource, type ParseOptions, type ParseResult } from './parse.ts';
import type { ValidateContext } from './validate-context.ts';
import { validateWorkflow } from './validate.ts';
import { loopWarnings } from './loop-warnings.ts';
import { secretWarnings } from './secret-warnings.ts';

/**
 * Parses `source` and, when it parses, validates it for deploy. `workflow` is set only when there
 * is no problem at all, so a caller can deploy whatever it gets; a valid model may come with
 * `warnings` (it deploys all the same).
 */
export function loadModel(source: string, ctx?: ValidateContext, options?: ParseOptions): ParseResult {
  const parsed = parseSource(source, options);
  if (!parsed.workflow) return { problems: parsed.problems };
  const problems = validateWorkflow(parsed.workflow, ctx, parsed.locate);
  if (problems.length) return { problems };
  const warnings = [...loopWarnings(parsed.workflow), ...(ctx?.knownSecret ? secretWarnings(parsed.workflow, ctx.knownSecret) : [])];
  for (const w of warnings) {
    const position = parsed.locate?.(w.path);
    if (position) w.position = position;
  }
  return { workflow: parsed.workflow, problems, warnings };
}
