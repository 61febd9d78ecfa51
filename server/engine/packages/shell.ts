/**
 * The `acts.app.shell` package (spec 1.9.2): `<shell> -c <script>` runs in a child process of the
 * engine's shell runner, off the lane, in the process's directory; once it exited, in a later job
 * of the process, the act's data gets `data` (stdout: text, or parsed with `content-type: json`),
 * `exit_code` and `stderr`, and a non-zero exit fails the act with `ecode` `shell.exit`.
 * The server runs none unless its configuration enables it (ACTS_SHELL_ENABLE).
 */
import { ActError, familyFailure } from '../errors.ts';
import { outputOf, shellScriptOf, type ShellParams } from './shell-params.ts';
import { SHELL_PARAMS } from './params-schemas.ts';
import type { ShellResult } from './shell-types.ts';
import type { FuncPackage } from './types.ts';

export const SHELL_PACKAGE = 'acts.app.shell';

/** The tail of stderr a failure's message shows. */
function said(stderr: string): string {
  const text = stderr.trim();
  return text.length > 500 ? `…${text.slice(-500)}` : text;
}

/** The act's vars from an exit; a non-zero one fails the act once they are set (catch handlers see them). */
function exited(result: ShellResult, type: ShellParams['content-type'], setVars: (vars: Record<string, unknown>) => void): void {
  try {
    if (result.exitCode !== 0) {
      setVars({ data: result.stdout, exit_code: result.exitCode, stderr: result.stderr });
      const err = said(result.stderr);
      throw new ActError('shell.exit', `the script exited with code ${result.exitCode}${err ? `: ${err}` : ' (nothing on stderr)'}`);
    }
    setVars({ data: outputOf(result.stdout, type), exit_code: 0, stderr: result.stderr });
  } catch (err) {
    throw familyFailure(err, 'shell.');
  }
}

export const shellPackage: FuncPackage = {
  name: SHELL_PACKAGE,
  desc: "Runs a shell script in the process's directory; its output goes into the act's data. Off unless the server enables it.",
  icon: '',
  doc: '',
  version: '1.0.0',
  schema: SHELL_PARAMS,
  resources: [],
  catalog: 'app',
  run_as: 'func',
  secrets: true,
  run(ctx) {
    const params = ctx.params as ShellParams;
    ctx.runShell(shellScriptOf(params), (result) =>
      exited(result, params['content-type'], (vars) => {
        ctx.setVars(vars);
        ctx.markOutputs(Object.keys(vars));
      }),
    );
  },
};
