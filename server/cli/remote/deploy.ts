/**
 * `acts deploy <file>`: sends a model file to the server, which validates and deploys it as a new
 * version; prints `{"id","ver"}`. `--dry-run` only validates on the server. Problems of an
 * invalid model are printed like `acts validate` prints them (file:line:col: message [code]),
 * then the JSON error line; exit 2. `--require-tests`: the server first runs the model's saved step
 * tests and refuses the deploy (`model.tests_failed`, exit 6) when one fails, each named on stderr.
 */
import { formatProblem } from '../../engine/model/format.ts';
import type { ModelProblem } from '../../engine/model/types.ts';
import { EXIT, InputError } from '../errors.ts';
import { readText } from '../files.ts';
import type { ConnectionFlags } from './connection.ts';
import { RemoteFailure, usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export interface DeployFlags extends ConnectionFlags {
  dryRun?: boolean;
  note?: string;
  /** Refused (`model.tests_failed`) unless the model's saved step tests pass on the server. */
  requireTests?: boolean;
}

function isProblem(p: unknown): p is ModelProblem {
  return typeof p === 'object' && p !== null && typeof (p as ModelProblem).message === 'string' && typeof (p as ModelProblem).code === 'string';
}

const count = (n: number) => `${n} problem${n === 1 ? '' : 's'}`;

/** The failing step tests of a refused deploy, one line each. */
function failedTestLines(failure: RemoteFailure, file: string): string[] {
  const failing = Array.isArray(failure.details) ? (failure.details as Array<{ name?: unknown; failures?: unknown }>) : [];
  return failing.map((t) => `${file}: step test '${String(t.name)}' failed: ${Array.isArray(t.failures) ? t.failures.join('; ') : ''}`);
}

/** The lines for people before the error line: every problem of an invalid model, every failing step test. */
function problemLines(failure: RemoteFailure, file: string): string[] {
  if (failure.code === 'model.tests_failed') return failedTestLines(failure, file);
  if (failure.code !== 'model.invalid' || !Array.isArray(failure.details)) return [];
  const problems = failure.details.filter(isProblem);
  return [...problems.map((p) => formatProblem(p, file)), `${file}: ${count(problems.length)}`];
}

async function source(file: string): Promise<string> {
  try {
    return await readText(file, 'model file');
  } catch (err) {
    throw err instanceof InputError ? usage(err.message) : err;
  }
}

/** Runs `acts deploy`; returns the exit code. */
export function deployCommand(file: string, flags: DeployFlags, io: Io): Promise<number> {
  return runRemote(
    flags,
    io,
    async ({ client }) => {
      const text = await source(file);
      if (flags.dryRun) {
        const result = await client.models.validate.mutate({ source: text });
        if (!result.valid) throw new RemoteFailure('model.invalid', `${file} is not a valid model (${count(result.problems.length)})`, result.problems);
        io.out(JSON.stringify({ file, valid: true }));
        return EXIT.complete;
      }
      const deployed = await client.models.deploy.mutate({ source: text, note: flags.note, requireTests: flags.requireTests });
      io.out(JSON.stringify(deployed));
      return EXIT.complete;
    },
    (failure) => problemLines(failure, file),
  );
}
