import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cronProblem,
  loadModel,
  nextCronRun,
  parseDuration,
  parseModel,
  validateWorkflow,
  type ModelProblem,
  type ValidateContext,
  type Workflow,
} from '../server/engine/model/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/models/${name}`, import.meta.url), 'utf8');

/** Syntax check with the host parser (it compiles, never runs, the code). */
function checkSyntax(source: string, mode: 'script' | 'function'): string | null {
  try {
    new Function(mode === 'script' ? `return (() => { ${source}\n })` : source);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const PACKAGES = new Set(['acts.core.irq', 'acts.core.msg', 'acts.core.action', 'acts.transform.set', 'acts.transform.code']);
const ctx: ValidateContext = { knownPackage: (uses) => PACKAGES.has(uses), checkSyntax };

/** The problems of `source`, as [code, path, line, col]. */
function problemsOf(source: string, context: ValidateContext = ctx): [string, string, number?, number?][] {
  const { workflow, problems } = loadModel(source, context);
  if (problems.length) expect(workflow).toBeUndefined();
  return problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col]);
}

const lines = (...l: string[]) => l.join('\n') + '\n';

describe('validateWorkflow: valid models', () => {
  it('accepts the full fixture with every check enabled', () => {
    const { workflow, problems } = loadModel(fixture('full.yml'), ctx);
    expect(problems).toEqual([]);
    expect(workflow?.id).toBe('full');
  });

  it('accepts a workflow without steps or setup acts (it completes at once)', () => {
    expect(problemsOf('id: empty\n')).toEqual([]);
  });

  it('accepts a step with neither acts nor branches', () => {
    expect(problemsOf('id: m\nsteps:\n  - id: s1\n  - id: s2\n')).toEqual([]);
  });

  it('validates a workflow built in code, without positions', () => {
    const { workflow } = parseModel('id: m\nsteps:\n  - id: s1\n    next: nowhere\n');
    const problems = validateWorkflow(workflow!);
    expect(problems).toEqual([
      {
        code: 'model.unknown_next',
        message: "`next` must name a step of this model: there is no step 'nowhere'",
        path: 'steps[0].next',
      },
    ]);
  });
});

describe('validateWorkflow: rules', () => {
  it('model.missing_id: the model needs an id', () => {
    const { problems } = loadModel('name: no id\n', ctx);
    expect(problems).toEqual([
      {
        code: 'model.missing_id',
        message: 'the model has no id: add `id: <name>` at the top',
        path: 'id',
        position: { line: 1, col: 1 },
      },
    ]);
  });

  it('model.duplicate_id: reported at the second occurrence, naming the first', () => {
    const source = lines(
      'id: m', //                          1
      'on:', //                            2
      '  - id: go', //                     3
      '    uses: acts.event.manual', //    4
      'setup:', //                         5
      '  - id: hook', //                   6
      '    uses: acts.core.msg', //        7
      '    on: created', //                8
      'steps:', //                         9
      '  - id: s1', //                     10
      '    acts:', //                      11
      '      - id: go', //                 12
      '        uses: acts.core.irq', //    13
      '    catches:', //                   14
      '      - steps:', //                 15
      '          - id: hook', //           16
      '  - id: s1', //                     17
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.duplicate_id', 'steps[0].acts[0].id', 12, 13],
      ['model.duplicate_id', 'steps[0].catches[0].steps[0].id', 16, 17],
      ['model.duplicate_id', 'steps[1].id', 17, 9],
    ]);
    expect(problems[0].message).toBe(
      "duplicate id 'go': the trigger at on[0] (line 3) already uses it; ids must be unique across the model's steps, branches, acts and triggers",
    );
    expect(problems[1].message).toContain('the act at setup[0] (line 6)');
    expect(problems[2].message).toContain('the step at steps[0] (line 10)');
  });

  it('model.duplicate_id: covers branches, timeout steps, act setup and the model id', () => {
    const source = lines(
      'id: m',
      'steps:',
      '  - id: s1',
      '    branches:',
      '      - id: b',
      '        steps:',
      '          - id: x',
      '      - id: b',
      '    timeout:',
      '      - on: 1s',
      '        steps:',
      '          - id: x',
      '    acts:',
      '      - id: a',
      '        uses: acts.core.irq',
      '        setup:',
      '          - id: m',
      '            uses: acts.core.msg',
    );
    expect(problemsOf(source)).toEqual([
      ['model.duplicate_id', 'steps[0].branches[1].id', 8, 13],
      ['model.duplicate_id', 'steps[0].timeout[0].steps[0].id', 12, 17],
      ['model.duplicate_id', 'steps[0].acts[0].setup[0].id', 17, 17],
    ]);
  });

  it('model.empty_trigger_id and model.missing_uses on triggers', () => {
    const source = lines('id: m', 'on:', '  - uses: acts.event.manual', '  - id: t2', '    name: no uses');
    expect(problemsOf(source)).toEqual([
      ['model.empty_trigger_id', 'on[0].id', 3, 5],
      ['model.missing_uses', 'on[1].uses', 4, 5],
    ]);
  });

  it('model.missing_uses on acts, wherever they are', () => {
    const source = lines('id: m', 'setup:', '  - id: a0', 'steps:', '  - acts:', '      - id: a1', '        setup:', '          - id: a2');
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line])).toEqual([
      ['model.missing_uses', 'setup[0].uses', 3],
      ['model.missing_uses', 'steps[0].acts[0].uses', 6],
      ['model.missing_uses', 'steps[0].acts[0].setup[0].uses', 8],
    ]);
    expect(problems[0].message).toBe('this act has no `uses`: name the package it runs, e.g. `uses: acts.core.irq`');
  });

  it('model.unknown_next: any step of the model, before or after; not a branch', () => {
    const source = lines(
      'id: m',
      'steps:',
      '  - id: s1',
      '    next: s3', // a later step: fine (section 0.1)
      '  - id: s2',
      '    branches:',
      '      - id: b1',
      '        steps:',
      '          - id: inner',
      '            next: s1', // a step of another list: fine
      '  - id: s3',
      '    next: b1',
      '  - id: s4',
      '    next: ghost',
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col, p.message])).toEqual([
      ['model.unknown_next', 'steps[2].next', 12, 11, "`next` must name a step of this model: 'b1' is a branch, not a step"],
      ['model.unknown_next', 'steps[3].next', 14, 11, "`next` must name a step of this model: there is no step 'ghost'"],
    ]);
  });

  it('model.bad_timeout: <integer><s|m|h|d> on steps and acts', () => {
    const source = lines(
      'id: m',
      'steps:',
      '  - timeout:',
      '      - on: 5x',
      '      - on: 10m',
      '    acts:',
      '      - uses: acts.core.irq',
      '        timeout:',
      '          - on: 1.5h',
      '          - steps: []',
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.bad_timeout', 'steps[0].timeout[0].on', 4, 13],
      ['model.bad_timeout', 'steps[0].acts[0].timeout[0].on', 9, 17],
      ['model.bad_timeout', 'steps[0].acts[0].timeout[1].on', 10, 13],
    ]);
    expect(problems[0].message).toBe("timeout '5x' is not a duration: write <integer><s|m|h|d>, e.g. `30s`, `5m`, `2h` or `1d`");
    expect(problems[2].message).toMatch(/has no `on` duration/);
  });

  it('model.bad_cron: schedule triggers need a valid 6-field cron (5 fields also accepted)', () => {
    const source = lines(
      'id: m',
      'on:',
      '  - id: ok6',
      '    uses: acts.event.schedule',
      '    cron: "*/10 * * * * *"',
      '  - id: ok5',
      '    uses: acts.event.schedule',
      '    cron: "0 3 * * MON"',
      '  - id: no_cron',
      '    uses: acts.event.schedule',
      '  - id: bad',
      '    uses: acts.event.schedule',
      '    cron: "61 * * * * *"',
      '  - id: never',
      '    uses: acts.event.schedule',
      '    cron: "0 0 0 30 2 *"',
      '  - id: manual',
      '    uses: acts.event.manual',
      '    cron: "* * * * * *"',
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.bad_cron', 'on[2].cron', 9, 5],
      ['model.bad_cron', 'on[3].cron', 13, 11],
      ['model.bad_cron', 'on[4].cron', 16, 11],
      ['model.bad_cron', 'on[5].cron', 19, 11],
    ]);
    expect(problems[0].message).toMatch(/needs a `cron` expression with 6 fields/);
    expect(problems[1].message).toBe("trigger 'bad': the seconds field '61' of '61 * * * * *' is not valid: write 0–59 as a value, a range (1-5), a list (1,15), a step (*/10) or *");
    expect(problems[2].message).toMatch(/never fires/);
    expect(problems[3].message).toMatch(/only applies to `uses: acts.event.schedule`/);
  });

  it('a bad cron is told in a sentence that says what to write, not in the words of the parser', () => {
    expect(cronProblem('every minute')).toBe("'every minute' has 2 fields; a cron has 6 fields (sec min hour day month weekday) or 5 (min hour day month weekday), e.g. `0 */5 * * * *`");
    expect(cronProblem('0 25 * * *')).toMatch(/^the hours field '25' of '0 25 \* \* \*' is not valid: write 0–23 as /);
    expect(cronProblem('0 0 0 * JAN-MAR 8')).toMatch(/^the weekday field '8' .* write 0–7 or SUN–SAT as /);
    expect(cronProblem('@often')).toMatch(/^'@often' is not a cron nickname: use @yearly, @monthly/);
    expect(cronProblem('  ')).toMatch(/^the cron is empty: write 6 fields/);
    expect(cronProblem('0 0 0 30 2 *')).toBe("'0 0 0 30 2 *' never fires: no date matches it");
    expect(cronProblem('*/20 * * * * *')).toBeNull();
    expect(cronProblem('@daily')).toBeNull();
  });

  it('model.bad_timezone: an IANA zone, only on schedule triggers', () => {
    const source = lines(
      'id: m',
      'on:',
      '  - id: ok',
      '    uses: acts.event.schedule',
      '    cron: "0 0 8 * * *"',
      '    timezone: America/New_York',
      '  - id: mars',
      '    uses: acts.event.schedule',
      '    cron: "0 0 8 * * *"',
      '    timezone: Mars/Olympus',
      '  - id: manual',
      '    uses: acts.event.manual',
      '    timezone: UTC',
    );
    expect(problemsOf(source)).toEqual([
      ['model.bad_timezone', 'on[1].timezone', 10, 15],
      ['model.bad_timezone', 'on[2].timezone', 13, 15],
    ]);
  });

  it('model.unknown_needs and model.needs_cycle: sibling branches only, no self, no cycle', () => {
    const source = lines(
      'id: m',
      'steps:',
      '  - id: s1',
      '    branches:',
      '      - id: a',
      '        needs: [b]',
      '      - id: b',
      '        needs: [c]',
      '      - id: c',
      '        needs: [a, c, elsewhere]',
      '      - id: d',
      '        needs: [a]', // fine: a is a sibling
      '  - id: s2',
      '    branches:',
      '      - id: e',
      '        needs: [a]', // a is not a sibling here
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.needs_cycle', 'steps[0].branches[0].needs', 6, 16],
      ['model.unknown_needs', 'steps[0].branches[2].needs[1]', 10, 20],
      ['model.unknown_needs', 'steps[0].branches[2].needs[2]', 10, 23],
      ['model.unknown_needs', 'steps[1].branches[0].needs[0]', 16, 17],
    ]);
    expect(problems[0].message).toBe('branches a, b, c need each other in a cycle, so none of them can ever start');
    expect(problems[1].message).toBe("branch 'c' cannot need itself");
    expect(problems[2].message).toBe("branch 'c' needs 'elsewhere', which is not a branch of step 's1' (its branches: a, b, c, d)");
  });

  it('model.bad_hook: a known event, and only in setup lists', () => {
    const source = lines(
      'id: m',
      'setup:',
      '  - uses: acts.core.msg',
      '    on: finished',
      'steps:',
      '  - setup:',
      '      - uses: acts.core.msg',
      '        on: step',
      '    acts:',
      '      - uses: acts.core.irq',
      '        on: created',
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.bad_hook', 'setup[0].on', 4, 9],
      ['model.bad_hook', 'steps[0].acts[0].on', 11, 13],
    ]);
    expect(problems[0].message).toBe("unknown hook event 'finished': use one of created, completed, before_update, updated, step");
    expect(problems[1].message).toMatch(/only works for acts in a `setup` list/);
  });

  it('model.unknown_package: act packages checked when the context knows them', () => {
    const source = lines('id: m', 'steps:', '  - acts:', '      - uses: acts.core.irq', '      - uses: acts.core.iqr');
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.unknown_package', 'steps[0].acts[1].uses', 5, 15],
    ]);
    expect(problems[0].message).toMatch(/^unknown package 'acts.core.iqr': check the spelling/);
    expect(problemsOf(source, {})).toEqual([]);
  });

  it('model.unknown_trigger: triggers use one of the four event packages', () => {
    const source = lines('id: m', 'on:', '  - id: t', '    uses: acts.core.irq');
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.unknown_trigger', 'on[0].uses', 4, 11],
    ]);
    expect(problems[0].message).toContain('acts.event.manual, acts.event.hook, acts.event.chat, acts.event.schedule');
  });

  it('model.bad_expression: if, run, templates and transform code, when a checker is given', () => {
    const source = lines(
      'id: m', //                                      1
      'outputs:', //                                   2
      '  total: "{{ a + }}"', //                       3
      'steps:', //                                     4
      '  - id: s1', //                                 5
      '    if: "a >"', //                              6
      '    inputs:', //                                7
      '      ok: "{{ a }} and {{ b }}"', //            8
      '      nested: { deep: "x {{ ) }} y" }', //      9
      '    branches:', //                              10
      '      - id: b1', //                             11
      '        run: "let x = ;"', //                   12
      '    acts:', //                                  13
      '      - uses: acts.core.msg', //                14
      '        params:', //                            15
      '          list: ["{{ 1 }}", "{{ ( }}"]', //     16
      '      - uses: acts.transform.code', //          17
      '        params: "return {"', //                 18
      '      - uses: acts.transform.code', //          19
      '        params: "const x = 1; return { x }"', //20
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.bad_expression', 'outputs.total', 3, 10],
      ['model.bad_expression', 'steps[0].if', 6, 9],
      ['model.bad_expression', 'steps[0].inputs.nested.deep', 9, 23],
      ['model.bad_expression', 'steps[0].branches[0].run', 12, 14],
      ['model.bad_expression', 'steps[0].acts[0].params.list[1]', 16, 29],
      ['model.bad_expression', 'steps[0].acts[1].params', 18, 17],
    ]);
    expect(problems[0].message).toMatch(/^invalid template \{\{ a \+ \}\}: /);
    expect(problems[5].message).toMatch(/^invalid acts.transform.code code: /);
    expect(problemsOf(source, {})).toEqual([]);
  });

  it('model.bad_expression: a YAML boolean `if` is the valid script "true"', () => {
    expect(problemsOf('id: m\nsteps:\n  - if: true\n    acts:\n      - uses: acts.core.msg\n        if: false\n')).toEqual([]);
  });

  it('model.bad_schema: inputs_schema and exposes must compile', () => {
    const source = lines(
      'id: m',
      'inputs_schema:',
      '  type: object',
      '  properties:',
      '    n: { type: integer, format: email }', // unknown formats are not a problem
      'exposes:',
      '  type: objekt',
    );
    const { problems } = loadModel(source, ctx);
    expect(problems.map((p) => [p.code, p.path, p.position?.line, p.position?.col])).toEqual([
      ['model.bad_schema', 'exposes', 7, 3],
    ]);
    expect(problems[0].message).toMatch(/^`exposes` is not a valid JSON Schema: schema is invalid/);
  });

  it('reports the problems of every rule at once, in document order', () => {
    const source = lines(
      'on:',
      '  - uses: acts.event.schedule',
      'steps:',
      '  - id: s',
      '    next: nope',
      '    timeout:',
      '      - on: soon',
      '  - id: s',
    );
    expect(problemsOf(source)).toEqual([
      ['model.missing_id', 'id', 1, 1],
      ['model.empty_trigger_id', 'on[0].id', 2, 5],
      ['model.bad_cron', 'on[0].cron', 2, 5],
      ['model.unknown_next', 'steps[0].next', 5, 11],
      ['model.bad_timeout', 'steps[0].timeout[0].on', 7, 13],
      ['model.duplicate_id', 'steps[1].id', 8, 9],
    ]);
  });

  it('loadModel returns parse problems without validating', () => {
    expect(problemsOf('steps: 5\n')).toEqual([['model.type', 'steps', 1, 8]]);
  });
});

describe('helpers', () => {
  it('parseDuration returns milliseconds', () => {
    expect(parseDuration('2s')).toBe(2_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('3d')).toBe(259_200_000);
    expect(parseDuration('0s')).toBe(0);
    for (const bad of ['', 's', '1.5s', '-1s', '1 s', '1w', '10', ' 1s']) expect(parseDuration(bad)).toBeNull();
  });

  it('nextCronRun gives the next fire after a time, in a timezone', () => {
    const from = Date.UTC(2025, 0, 1, 0, 0, 0);
    expect(nextCronRun('*/5 * * * * *', undefined, from)).toBe(from + 5_000);
    expect(nextCronRun('0 0 * * *', 'UTC', from)).toBe(Date.UTC(2025, 0, 2));
    expect(nextCronRun('0 0 12 * * *', 'Europe/Paris', from)).toBe(Date.UTC(2025, 0, 1, 11));
    expect(nextCronRun('nope', undefined, from)).toBeNull();
    expect(nextCronRun('0 0 0 30 2 *', undefined, from)).toBeNull();
    expect(nextCronRun('* * * * * *', 'Mars/Olympus', from)).toBeNull();
  });

  it('problems carry the fields of ModelProblem only', () => {
    const { problems } = loadModel('id: m\nsteps:\n  - next: x\n', ctx);
    const keys = new Set(problems.flatMap((p: ModelProblem) => Object.keys(p)));
    expect([...keys].sort()).toEqual(['code', 'message', 'path', 'position']);
  });

  it('validates a workflow object that was never YAML', () => {
    const wf: Workflow = {
      id: '',
      name: '',
      desc: '',
      tag: '',
      ver: 0,
      inputs: {},
      outputs: {},
      env: {},
      setup: [],
      on: [],
      steps: [],
    };
    expect(validateWorkflow(wf).map((p) => p.code)).toEqual(['model.missing_id']);
  });
});
