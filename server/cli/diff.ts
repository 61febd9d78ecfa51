/**
 * `acts diff <a> <b>`: the structural changes from one model file to another (vocab/model-diff),
 * one line a change (`~ step approve: params, next`), or with `--json` one JSON object a change
 * (the API's `models.structuralDiff` change, with the engine's node ids of both files). Like
 * diff(1): exit 0 when the models are the same, 1 when they differ, 2 when a file cannot be read
 * or is not a model (each problem on stderr with its code).
 */
import { modelNodeIds } from '../api/model-node-ids.ts';
import { formatProblem, parseModel, type ModelProblem } from '../engine/model/index.ts';
import { changeLine, diffModels } from '../../vocab/model-diff/index.ts';
import { EXIT } from './errors.ts';
import { readText } from './files.ts';

export interface DiffCommandOptions {
  json?: boolean;
}

/** Exit codes of `acts diff` (diff(1)'s). */
export const DIFF_EXIT = { same: EXIT.complete, different: 1, invalid: EXIT.invalidInput } as const;

function problemLine(p: ModelProblem, file: string, json: boolean): string {
  if (!json) return `acts diff: not a valid model: ${formatProblem(p, file)}`;
  return JSON.stringify({ code: p.code, message: `${file} is not a valid model: ${p.message}`, file, line: p.position?.line, col: p.position?.col, path: p.path || undefined });
}

export async function diffCommand(files: [string, string], opts: DiffCommandOptions, print: (line: string) => void, warn: (line: string) => void): Promise<number> {
  const sources = await Promise.all(files.map((file) => readText(file, 'model file')));
  let invalid = false;
  sources.forEach((source, i) => {
    for (const p of parseModel(source).problems) {
      invalid = true;
      warn(problemLine(p, files[i], opts.json === true));
    }
  });
  if (invalid) return DIFF_EXIT.invalid;
  const [before, after] = sources;
  const diff = diffModels(before, after, { nids: { before: modelNodeIds(before), after: modelNodeIds(after) } });
  for (const change of diff.changes) {
    if (change.status === 'unchanged') continue;
    print(opts.json ? JSON.stringify(change) : changeLine(change));
  }
  return diff.same ? DIFF_EXIT.same : DIFF_EXIT.different;
}
