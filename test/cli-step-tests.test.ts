/**
 * `acts test <model>` for real (docs/step-tests.md): one JSON line per saved case and a summary;
 * exit 0 when every case passes, 1 when one fails, 2 for a missing file or malformed `tests:`.
 * And `acts deploy --require-tests` against a real server: refused (exit 6) while a case fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runActsCli } from './helpers/acts-cli.ts';
import { startTestServer } from './helpers/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'acts-test-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ORDER = 'test/fixtures/step-tests/order.yml';

function variant(name: string, tests: string): string {
  const source = readFileSync(ORDER, 'utf8').replace(/^tests:[\s\S]*$/m, tests);
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

describe('acts test', () => {
  it('exit 0: every case passed; a line per case in order, then the summary', async () => {
    const run = await runActsCli(['test', ORDER]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines.map((l) => (l as { name?: string }).name ?? (l as { event: string }).event)).toEqual(['multiplies', 'manager approves', 'too many fails', 'summary']);
    expect(run.lines[0]).toMatchObject({ node: 'compute', pass: true, end: 'completed', outputs: { total: 12 }, failures: [] });
    expect(run.lines[3]).toEqual({ event: 'summary', total: 3, passed: 3, failed: 0 });
  }, 120_000);

  it('exit 1: a case failed; its line says why', async () => {
    const file = variant('failing.yml', 'tests:\n  - { name: ok, node: compute, inputs: { price: 2, qty: 2 }, expect: { outputs: { total: 4 } } }\n  - { name: wrong, node: compute, inputs: { price: 2, qty: 2 }, expect: { outputs: { total: 5 } } }\n  - { name: unanswered, node: approve, inputs: { total: 1 } }\n');
    const run = await runActsCli(['test', file]);
    expect(run.code).toBe(1);
    expect(run.lines.slice(0, 3).map((l) => (l as { pass: boolean }).pass)).toEqual([true, false, false]);
    expect((run.lines[1] as { failures: string[] }).failures).toEqual(["output 'total' is 4, expected 5"]);
    expect(run.lines[2]).toMatchObject({ end: 'waiting', waiting: ['ask'] });
    expect(run.lines[3]).toEqual({ event: 'summary', total: 3, passed: 1, failed: 2 });
  }, 120_000);

  it('exit 2: malformed tests (each problem with its line) or a missing file; nothing on stdout', async () => {
    const file = variant('malformed.yml', 'tests:\n  - name: a\n    node: compute\n    expect: { outputs: 3 }\n');
    const run = await runActsCli(['test', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const line = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('expect:')) + 1;
    expect(run.stderr).toContain(`${file}:${line}:`);
    expect(run.stderr).toContain('tests[0].expect.outputs');

    const missing = await runActsCli(['test', join(dir, 'none.yml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^acts: model file .* does not exist/);
  }, 120_000);

  it('--model deploys the models subflow acts call; without it the case fails with model.not_found', async () => {
    const withChild = await runActsCli(['test', 'test/fixtures/step-tests/subflow.yml', '--model', 'examples/subflow-child.yml']);
    expect(withChild.code).toBe(0);
    expect(withChild.lines[0]).toMatchObject({ name: 'the child doubles nothing', pass: true, end: 'completed' });
    const without = await runActsCli(['test', 'test/fixtures/step-tests/subflow.yml']);
    expect(without.code).toBe(1);
    expect((without.lines[0] as { error: { message: string } }).error.message).toContain("model 'subflow-child' is not deployed");
  }, 120_000);

  it('exit 0 and an empty summary for a model without saved cases', async () => {
    const run = await runActsCli(['test', 'examples/code.yml']);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([{ event: 'summary', total: 0, passed: 0, failed: 0 }]);
  }, 120_000);
});

describe('acts deploy --require-tests', () => {
  it('refuses (exit 6, model.tests_failed, each failing case on stderr) while a case fails; deploys when they pass', async () => {
    const t = await startTestServer({ backend: 'sqlite' });
    try {
      const remote = ['--server', t.url, '--token', t.tokens.designer];
      const file = variant('gated.yml', 'tests:\n  - { name: wrong total, node: compute, inputs: { price: 2, qty: 2 }, expect: { outputs: { total: 5 } } }\n');
      const refused = await runActsCli(['deploy', file, '--require-tests', ...remote]);
      expect(refused.code).toBe(6);
      expect(refused.stdout).toBe('');
      const lines = refused.stderr.trim().split('\n');
      expect(lines[0]).toBe(`${file}: step test 'wrong total' failed: output 'total' is 4, expected 5`);
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ code: 'model.tests_failed', retryable: false });

      const deployed = await runActsCli(['deploy', ORDER, '--require-tests', ...remote]);
      expect(deployed.code).toBe(0);
      expect(deployed.lines).toEqual([expect.objectContaining({ id: 'st-order', ver: 1 })]);
    } finally {
      await t.close();
    }
  }, 120_000);
});
