/**
 * `acts run` with shell and state acts (issue 13, items 2 and 3): a shell act runs only with
 * ACTS_SHELL_ENABLE=1 in the environment (else the run is refused as invalid input, exit 2, with
 * the problem model.package_off); state acts keep their values in the run's store.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'acts-cli-app-'));
const FLOW = path.join(dir, 'flow.yml');
writeFileSync(
  FLOW,
  `
id: app
steps:
  - id: s1
    acts:
      - { uses: acts.app.state, key: put, params: { op: SET, key: greeting, value: hello } }
      - { uses: acts.app.state, key: get, params: { op: GET, key: greeting } }
      - { uses: acts.app.shell, key: script, params: { script: 'echo "$G world"', env: { G: '{{ greeting }}' } } }
`,
);

function acts(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/acts.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('acts run with shell and state acts', { timeout: HOST_TEST_BUDGET_MS }, () => {
  it("ACTS_SHELL_ENABLE=1: the state act's value reaches the shell act, whose output is the step's", async () => {
    const { code, stdout, stderr } = await acts(['run', FLOW], { ACTS_SHELL_ENABLE: '1', ACTS_SHELL_ROOT: path.join(dir, 'root') });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { key?: string; state?: string; outputs?: Record<string, unknown>; event?: string });
    expect(lines.find((l) => l.key === 's1' && l.state === 'completed')?.outputs).toMatchObject({ greeting: 'hello', data: 'hello world', exit_code: 0 });
    expect(lines.at(-1)).toMatchObject({ event: 'complete', outputs: { data: 'hello world' } });
  });

  it('without it: exit 2, the problem model.package_off at the act and how to turn it on', async () => {
    const { code, stderr } = await acts(['run', FLOW], { ACTS_SHELL_ENABLE: '0' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/flow\.yml:8:17: 'acts\.app\.shell' cannot run here: .*ACTS_SHELL_ENABLE=1.*\[model\.package_off\] \(at steps\[0\]\.acts\[2\]\.uses\)/);
  });
});
