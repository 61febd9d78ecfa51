/**
 * `parseModel`: YAML or JSON text → typed `Workflow` (spec 1.1–1.5). The steps are: syntax, a
 * mapping at the root, the field schemas (every wrong type reported with its path and position),
 * then the generated ids. A NUL anywhere is a problem (`model.nul`). A document with any problem yields no workflow.
 */
import { fillIds } from './fill-ids.ts';
import { nulProblems } from './nul-problems.ts';
import type { IdSource } from './ids.ts';
import type { Locate } from './locate.ts';
import { formatPath } from './paths.ts';
import { readSource, type SourceFormat } from './read.ts';
import { workflowSchema } from './schema.ts';
import type { ModelProblem, Workflow } from './types.ts';

export interface ParseOptions {
  /** `auto` (default): JSON when the text starts with `{` or `[` and parses as JSON, else YAML. */
  format?: SourceFormat;
  /** Id source for the ids the document leaves out (default: random `0-9a-zA-Z`). */
  newId?: IdSource;
  /**
   * Generate a 21-character workflow id when the document has none. Off by default: a deployed
   * model needs a stable id, so a missing one is reported by validation (`model.missing_id`)
   * rather than replaced by a new random id on every deploy.
   */
  generateWorkflowId?: boolean;
}

export interface ParseResult {
  workflow?: Workflow;
  problems: ModelProblem[];
  /** Warnings of a valid model (loadModel only). */
  warnings?: ModelProblem[];
}

/** A parse result that can also locate paths in the source (for validation problems). */
export interface ParsedSource extends ParseResult {
  locate: Locate;
}

function rootKind(data: unknown): string {
  if (Array.isArray(data)) return 'a list';
  return data === null || data === undefined ? 'an empty document' : 'a single value';
}

export function parseSource(source: string, options: ParseOptions = {}): ParsedSource {
  const { data, problems, locate, positionOf } = readSource(source, options.format);
  if (problems.length) return { problems, locate };
  const nul = nulProblems(source, data, locate, positionOf);
  if (nul.length) return { problems: nul, locate };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const message = `a model must be a mapping of fields (id, name, steps, …), got ${rootKind(data)}`;
    return { problems: [{ code: 'model.not_object', message, path: '', position: locate('') }], locate };
  }

  const parsed = workflowSchema.safeParse(data);
  if (!parsed.success) {
    const typeProblems = parsed.error.issues.map((issue): ModelProblem => {
      const path = formatPath(issue.path);
      return { code: 'model.type', message: issue.message, path, position: locate(path) };
    });
    return { problems: typeProblems, locate };
  }
  fillIds(parsed.data, { newId: options.newId, workflowId: options.generateWorkflowId });
  return { workflow: parsed.data, problems: [], locate };
}

/** Parses a YAML or JSON model; `problems` lists every syntax and type problem found. */
export function parseModel(source: string, options?: ParseOptions): ParseResult {
  const { workflow, problems } = parseSource(source, options);
  return workflow ? { workflow, problems } : { problems };
}
