/**
 * `acts test <model>`: runs every saved step test of a model file (its `tests:` list, see
 * docs/step-tests.md), each on its own throw-away in-memory engine, and prints one JSON line per
 * case as it ends, then a summary line. Exit 0 when every case passed (also when there is none),
 * 1 when any failed, 2 when the file cannot be read or its `tests:` are malformed (each problem on
 * stderr as `file:line:col: message (at path)`). http acts do call out; shell acts follow the
 * configuration like `acts run`. `--model <file>` (repeatable) gives the models subflow acts call.
 */
import { ActError } from '../engine/errors.ts';
import { loadConfig } from '../runtime/config.ts';
import { engineOptionsFrom } from '../runtime/engine-options.ts';
import { parseModel } from '../engine/model/index.ts';
import { formatCaseProblem, readCases, runCases, type CaseProblem, type ModelSource } from '../runtime/step-tests/index.ts';
import type { StepTestVerdict } from '../../vocab/step-tests.ts';
import { EXIT, InputError } from './errors.ts';
import { readText } from './files.ts';

type Print = (line: string) => void;

function caseLine(v: StepTestVerdict): string {
  const { name, node, pass, end, state, outputs, error, failures, waiting, ms } = v;
  return JSON.stringify({ name, node, pass, end, state, outputs, error, failures, waiting: waiting.map((w) => w.node), ms });
}

/** The `--model` files by their model id (the models subflow acts call). */
async function childModels(files: readonly string[]): Promise<ModelSource> {
  const byId = new Map<string, string>();
  for (const f of files) {
    const source = await readText(f, 'model file');
    const id = parseModel(source).workflow?.id;
    if (!id) throw new InputError(`model file '${f}' is not a model with an id: check it with acts validate ${f}`);
    byId.set(id, source);
  }
  return async (mid) => byId.get(mid);
}

export async function testCommand(file: string, options: { limitMs?: number; model?: string[] }, print: Print, warn: Print): Promise<number> {
  if (options.limitMs !== undefined && !(Number.isInteger(options.limitMs) && options.limitMs > 0)) {
    throw new InputError('--limit-ms must be a whole number of milliseconds above 0, e.g. --limit-ms 5000');
  }
  const source = await readText(file, 'model file');
  try {
    readCases(source);
  } catch (err) {
    if (!ActError.is(err) || (err.code !== 'steptest.invalid' && err.code !== 'model.invalid')) throw err;
    const problems = Array.isArray(err.details) ? (err.details as CaseProblem[]) : [];
    for (const p of problems.slice(1)) warn(formatCaseProblem(p, file));
    throw new InputError(problems[0] ? formatCaseProblem(problems[0], file) : err.message);
  }
  const models = await childModels(options.model ?? []);
  const { http, shell } = engineOptionsFrom(loadConfig());
  const verdicts = await runCases(source, { engine: { http, shell }, limitMs: options.limitMs, models }, (v) => print(caseLine(v)));
  const failed = verdicts.filter((v) => !v.pass).length;
  print(JSON.stringify({ event: 'summary', total: verdicts.length, passed: verdicts.length - failed, failed }));
  return failed === 0 ? EXIT.complete : EXIT.processError;
}
