/**
 * `acts diff`, run for real (`node bin/acts.mjs diff …`): one line per structural change, JSON
 * lines with `--json`, and diff(1)'s exit codes — 0 the same, 1 different, 2 a file that cannot
 * be read or is not a model (its problem's code and a sentence on stderr).
 */
import { describe, expect, it } from 'vitest';
import { runActsCli } from './helpers/acts-cli.ts';

const V1 = 'test/fixtures/diff/expense-v1.yml';
const V2 = 'test/fixtures/diff/expense-v2.yml';
const BAD = 'test/fixtures/cli/bad-yaml.yml';
const TIMEOUT = 30_000;

describe('acts diff', () => {
  it('prints one line per change and exits 1 when the models differ', { timeout: TIMEOUT }, async () => {
    const r = await runActsCli(['diff', V1, V2]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      '~ act ask_manager: params',
      '- step finance',
      '+ step budget',
      '> act check_budget: moved',
      '- act step:finance/acts[1]',
      '+ act tell_requester',
    ]);
    expect(r.stderr).toBe('');
  });

  it('prints one JSON object per change with --json, with the fields and the engine node ids', { timeout: TIMEOUT }, async () => {
    const r = await runActsCli(['diff', V1, V2, '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.lines).toHaveLength(6);
    expect(r.lines[0]).toEqual({
      key: 'act:ask_manager',
      status: 'changed',
      kind: 'act',
      label: 'ask_manager',
      elementId: 'ask_manager',
      nid: 'ask_manager',
      path: 'steps[0].acts[0]',
      beforePath: 'steps[0].acts[0]',
      fields: [{ field: 'params', before: { title: 'Approve {{ amount }}?' }, after: { title: 'Approve {{ amount }} for {{ requester }}?' } }],
    });
    expect(r.lines[3]).toMatchObject({ key: 'act:check_budget', status: 'moved', moved: { from: { parent: 'step:finance' }, to: { parent: 'step:budget' } } });
    // an act without an id: the engine's generated id of the old text
    expect(r.lines[4]).toMatchObject({ key: 'step:finance/acts[1]', status: 'removed', label: 'tell_finance', nid: expect.stringMatching(/^[0-9a-zA-Z]{8}$/) });
  });

  it('prints nothing and exits 0 when the models are the same', { timeout: TIMEOUT }, async () => {
    const r = await runActsCli(['diff', V1, V1, '--json']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 2 on invalid YAML with the stable code and a sentence, in text and as JSON', { timeout: TIMEOUT }, async () => {
    const text = await runActsCli(['diff', V1, BAD]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^acts diff: not a valid model: test\/fixtures\/cli\/bad-yaml\.yml:5:3: .+ \[yaml\.syntax\]$/m);
    const json = await runActsCli(['diff', BAD, V1, '--json']);
    expect(json.code).toBe(2);
    const problem = JSON.parse(json.stderr.trim().split('\n')[0]) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: 'yaml.syntax', file: BAD, line: 5, col: 3, message: expect.stringMatching(/^test\/fixtures\/cli\/bad-yaml\.yml is not a valid model: \w/) });
  });

  it('exits 2 when a file is missing', { timeout: TIMEOUT }, async () => {
    const r = await runActsCli(['diff', V1, 'test/fixtures/diff/no-such.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/model file 'test\/fixtures\/diff\/no-such\.yml' does not exist/);
  });
});
