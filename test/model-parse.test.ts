import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  formatProblem,
  ID_ALPHABET,
  newId,
  parseModel,
  type ModelProblem,
  type Workflow,
} from '../server/engine/model/index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/models/${name}`, import.meta.url), 'utf8');

function parseOk(source: string, options?: Parameters<typeof parseModel>[1]): Workflow {
  const { workflow, problems } = parseModel(source, options);
  expect(problems).toEqual([]);
  expect(workflow).toBeDefined();
  return workflow!;
}

const NODE_ID = /^[0-9a-zA-Z]{8}$/;

describe('parseModel: good documents', () => {
  it('reads every workflow field of a YAML document', () => {
    const wf = parseOk(fixture('full.yml'));
    expect(wf).toMatchObject({
      id: 'full',
      name: 'Full model',
      desc: 'Uses every field',
      tag: 'demo',
      ver: 3,
      inputs: { amount: 10, who: 'alice' },
      inputs_schema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      outputs: { total: null, doubled: '{{ amount * 2 }}' },
      exposes: { type: 'object' },
      env: { expose: ['total'], region: 'eu' },
    });
    expect(wf.setup).toHaveLength(1);
    expect(wf.setup[0]).toMatchObject({ id: 'on_created', uses: 'acts.core.msg', on: 'created', params: { text: 'started' } });
    expect(wf.on).toEqual([
      { id: 'start', name: 'Start', desc: 'manual start', tag: 'ui', uses: 'acts.event.manual', params: { amount: 5 } },
      { id: 'nightly', name: '', desc: '', tag: '', uses: 'acts.event.schedule', params: null, cron: '0 0 2 * * *', timezone: 'Europe/Paris' },
    ]);
  });

  it('reads every step, act, catch and timeout field', () => {
    const [s1] = parseOk(fixture('full.yml')).steps;
    expect(s1).toMatchObject({
      id: 's1',
      name: 'Step one',
      desc: 'first',
      tag: 't1',
      if: 'amount > 0',
      inputs: { a: 1 },
      outputs: { a: null },
    });
    expect(s1.setup[0]).toMatchObject({ id: 'hook_s1', on: 'completed' });
    expect(s1.acts[0]).toEqual({
      id: 'a1',
      name: 'Approve',
      desc: 'approval',
      tag: 't2',
      uses: 'acts.core.irq',
      key: 'approval-1',
      params: { to: '{{ who }}' },
      options: { x: 1 },
      inputs: { note: 'hi' },
      outputs: { ok: null },
      if: 'true',
      setup: [expect.objectContaining({ id: 'a1_hook', on: 'updated', uses: 'acts.core.msg' })],
      catches: [{ on: 'e1', steps: [expect.objectContaining({ id: 'a1_catch' })] }],
      timeout: [{ on: '2h', steps: [expect.objectContaining({ id: 'a1_timeout' })] }],
    });
    expect(s1.catches.map((c) => [c.on, c.steps[0].id])).toEqual([
      [undefined, 's1_catch_all'],
      ['e2', 's1_catch_e2'],
    ]);
    expect(s1.timeout).toEqual([{ on: '30s', steps: [expect.objectContaining({ id: 's1_timeout' })] }]);
  });

  it('reads every branch field and the step next', () => {
    const s2 = parseOk(fixture('full.yml')).steps[1];
    expect(s2.next).toBe('s1');
    expect(s2.branches[0]).toEqual({
      id: 'b1',
      name: 'Branch one',
      desc: 'big',
      tag: 't3',
      if: 'amount > 100',
      else: false,
      needs: [],
      run: "$set('big', true)",
      inputs: { big: true },
      outputs: { big: null },
      steps: [expect.objectContaining({ id: 'b1_s1' })],
    });
    expect(s2.branches[1]).toMatchObject({ id: 'b2', else: true, needs: ['b1'] });
    expect(s2.branches[1].if).toBeUndefined();
  });

  it('reads the JSON form of a model into the same workflow as the YAML form', () => {
    const ids = () => {
      let n = 0;
      return (len: number) => String(n++).padStart(len, '0');
    };
    const fromYaml = parseOk(fixture('full.yml'), { newId: ids() });
    expect(parseOk(fixture('full.json'), { newId: ids() })).toEqual(fromYaml);
    expect(parseOk(fixture('full.json'), { format: 'json', newId: ids() })).toEqual(fromYaml);
  });

  it('fills every default of a minimal document', () => {
    const wf = parseOk('id: m\nsteps:\n  - id: s\n    acts:\n      - id: a\n        uses: acts.core.msg\n    branches:\n      - id: b\n');
    expect(wf).toEqual({
      id: 'm',
      name: '',
      desc: '',
      tag: '',
      ver: 0,
      inputs: {},
      outputs: {},
      env: {},
      setup: [],
      on: [],
      steps: [
        {
          id: 's',
          name: '',
          desc: '',
          tag: '',
          inputs: {},
          outputs: {},
          acts: [
            {
              id: 'a',
              name: '',
              desc: '',
              tag: '',
              uses: 'acts.core.msg',
              key: 'a',
              params: null,
              options: {},
              inputs: {},
              outputs: {},
              setup: [],
              catches: [],
              timeout: [],
            },
          ],
          branches: [
            { id: 'b', name: '', desc: '', tag: '', else: false, needs: [], inputs: {}, outputs: {}, steps: [] },
          ],
          catches: [],
          timeout: [],
          setup: [],
        },
      ],
    });
  });

  it('treats empty (null) fields as their defaults', () => {
    const wf = parseOk('id: m\nname:\ninputs:\nsteps:\n  - id: s\n    acts:\n    if:\n    next:\n');
    expect(wf.name).toBe('');
    expect(wf.inputs).toEqual({});
    expect(wf.steps[0].acts).toEqual([]);
    expect(wf.steps[0].if).toBeUndefined();
    expect(wf.steps[0].next).toBeUndefined();
  });

  it('ignores unknown fields at every level', () => {
    const wf = parseOk(fixture('full.yml'));
    expect(wf).not.toHaveProperty('extra_field');
    expect(wf.steps[0]).not.toHaveProperty('unknown_step_field');
    const act = parseOk('id: m\nsteps:\n  - acts:\n      - uses: x\n        retry: { times: 3 }\n').steps[0].acts[0];
    expect(act).not.toHaveProperty('retry');
  });

  it('turns numbers and booleans written in text fields into the text the author wrote', () => {
    const wf = parseOk(
      [
        'id: 123',
        'name: 1.10',
        'tag: true',
        'on:',
        '  - id: 7',
        '    uses: acts.event.manual',
        'steps:',
        '  - id: 007',
        '    if: true',
        '    next: 007',
        '    acts:',
        '      - id: 1',
        '        uses: 42',
        '        key: 0x1F',
        '        catches:',
        '          - on: 404',
        '    branches:',
        '      - id: 2',
        '        needs: [3]',
        '        if: false',
        '      - id: 3',
      ].join('\n'),
    );
    expect(wf.id).toBe('123');
    expect(wf.name).toBe('1.10');
    expect(wf.tag).toBe('true');
    expect(wf.on[0].id).toBe('7');
    const step = wf.steps[0];
    expect([step.id, step.if, step.next]).toEqual(['007', 'true', '007']);
    expect(step.acts[0]).toMatchObject({ id: '1', uses: '42', key: '0x1F' });
    expect(step.acts[0].catches[0].on).toBe('404');
    expect(step.branches[0]).toMatchObject({ id: '2', needs: ['3'], if: 'false' });
  });

  it('keeps the types of user data (inputs, params, env)', () => {
    const wf = parseOk('id: m\ninputs: { id: 1, ok: true }\nsteps:\n  - acts:\n      - uses: x\n        params: { n: 1.5, id: 2 }\n');
    expect(wf.inputs).toEqual({ id: 1, ok: true });
    expect(wf.steps[0].acts[0].params).toEqual({ n: 1.5, id: 2 });
  });

  it('coerces numbers in JSON text fields too', () => {
    const wf = parseOk('{"id": 5, "steps": [{"id": 6, "if": true, "acts": [{"uses": "x", "key": 7}]}]}');
    expect([wf.id, wf.steps[0].id, wf.steps[0].if, wf.steps[0].acts[0].key]).toEqual(['5', '6', 'true', '7']);
  });

  it('resolves YAML anchors and aliases', () => {
    const wf = parseOk('id: m\nsteps:\n  - acts:\n      - uses: x\n        params: &p { a: 1 }\n      - uses: y\n        params: *p\n');
    expect(wf.steps[0].acts[1].params).toEqual({ a: 1 });
  });

  it('reads ver given as a numeric string', () => {
    expect(parseOk('id: m\nver: "4"\n').ver).toBe(4);
  });
});

describe('parseModel: generated ids', () => {
  const source = 'id: m\nsteps:\n  - acts:\n      - uses: a\n        setup:\n          - uses: b\n            on: created\n    branches:\n      - steps:\n          - catches:\n              - steps:\n                  - name: deep\n';

  it('generates 8-character alphanumeric ids for steps, branches and acts', () => {
    const wf = parseOk(source);
    const step = wf.steps[0];
    const ids = [
      step.id,
      step.acts[0].id,
      step.acts[0].setup[0].id,
      step.branches[0].id,
      step.branches[0].steps[0].id,
      step.branches[0].steps[0].catches[0].steps[0].id,
    ];
    for (const id of ids) expect(id).toMatch(NODE_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('defaults the act key to the act id, generated or written', () => {
    const wf = parseOk(source);
    const act = wf.steps[0].acts[0];
    expect(act.key).toBe(act.id);
    expect(act.setup[0].key).toBe(act.setup[0].id);
    expect(parseOk('id: m\nsteps:\n  - acts:\n      - id: a7\n        uses: x\n').steps[0].acts[0].key).toBe('a7');
  });

  it('leaves the workflow id empty unless asked to generate it (21 characters)', () => {
    expect(parseOk('name: x\n').id).toBe('');
    expect(parseOk('name: x\n', { generateWorkflowId: true }).id).toMatch(/^[0-9a-zA-Z]{21}$/);
    expect(parseOk('id: keep\n', { generateWorkflowId: true }).id).toBe('keep');
  });

  it('does not generate trigger ids (an empty one is a validation problem)', () => {
    expect(parseOk('id: m\non:\n  - uses: acts.event.manual\n').on[0].id).toBe('');
  });

  it('uses an injected id source and never reuses an id the document wrote', () => {
    const drawn = ['taken000', 'fresh001', 'fresh002'];
    const wf = parseOk('id: m\nsteps:\n  - id: taken000\n  - name: two\n  - name: three\n', {
      newId: (len) => {
        expect(len).toBe(8);
        return drawn.shift()!;
      },
    });
    expect(wf.steps.map((s) => s.id)).toEqual(['taken000', 'fresh001', 'fresh002']);
  });

  it('newId draws from 0-9a-zA-Z with the requested length', () => {
    const ids = Array.from({ length: 200 }, () => newId(21));
    for (const id of ids) expect(id).toMatch(/^[0-9a-zA-Z]{21}$/);
    expect(new Set(ids).size).toBe(200);
    expect(ID_ALPHABET).toHaveLength(62);
    expect(newId(8)).toMatch(NODE_ID);
  });
});

describe('parseModel: syntax problems', () => {
  it('reports a YAML syntax error with its line and column', () => {
    const { workflow, problems } = parseModel('id: m\nsteps:\n  - id: s1\n   name: bad\n');
    expect(workflow).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'yaml.syntax', path: '', position: { line: 4, col: 1 } });
    expect(problems[0].message).toMatch(/without - indicator/);
  });

  it('reports every YAML syntax error, not just the first', () => {
    const { problems } = parseModel('id: m\nsteps:\n  - id: s1\n   name: bad\n  - id: s2\n   name: bad2\n');
    expect(problems.map((p) => [p.code, p.position])).toEqual([
      ['yaml.syntax', { line: 4, col: 1 }],
      ['yaml.syntax', { line: 6, col: 1 }],
    ]);
  });

  it('reports duplicate keys as syntax problems', () => {
    const { problems } = parseModel('id: a\nname: x\nid: b\n');
    expect(problems).toMatchObject([{ code: 'yaml.syntax', position: { line: 3, col: 1 } }]);
    expect(problems[0].message).toMatch(/unique/);
  });

  it('words JSON syntax errors the JSON way, with the position', () => {
    const { problems } = parseModel('{\n  "id": "m"\n  "steps": []\n}\n');
    expect(problems).toEqual([
      { code: 'json.syntax', message: "Expected ',' or '}' after property value", path: '', position: { line: 3, col: 3 } },
    ]);
  });

  it('reports a JSON error without an offset at the parser position', () => {
    const { problems } = parseModel('{ "id": "m", "steps": [ } ]\n', { format: 'json' });
    expect(problems).toHaveLength(1);
    expect(problems[0].code).toBe('json.syntax');
    expect(problems[0].position).toEqual({ line: 1, col: 25 });
  });

  it('rejects YAML text when the format is json', () => {
    const { problems } = parseModel('id: m\n', { format: 'json' });
    expect(problems).toHaveLength(1);
    expect(problems[0].code).toBe('json.syntax');
    expect(problems[0].message).not.toMatch(/is not valid JSON/);
  });

  it('refuses documents that expand aliases without bound', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    const { workflow, problems } = parseModel(bomb.join('\n'));
    expect(workflow).toBeUndefined();
    expect(problems).toMatchObject([{ code: 'yaml.syntax', message: expect.stringMatching(/alias/i) }]);
  });

  it('accepts a YAML flow mapping in auto mode', () => {
    expect(parseOk('{id: m, steps: [{id: s}]}').steps[0].id).toBe('s');
  });

  it('requires a mapping at the root', () => {
    for (const [source, got] of [
      ['- id: m\n', 'a list'],
      ['just text\n', 'a single value'],
      ['', 'an empty document'],
      ['# only a comment\n', 'an empty document'],
      ['[1, 2]', 'a list'],
    ]) {
      const { workflow, problems } = parseModel(source);
      expect(workflow).toBeUndefined();
      expect(problems).toHaveLength(1);
      expect(problems[0].code).toBe('model.not_object');
      expect(problems[0].message).toContain(got);
    }
    expect(parseModel('- id: m\n').problems[0].position).toEqual({ line: 1, col: 1 });
  });
});

describe('parseModel: type problems', () => {
  it('reports a wrong type with its path, position and a readable message', () => {
    const { workflow, problems } = parseModel('id: m\nsteps:\n  - id: s0\n  - id: s1\n    acts: do it\n');
    expect(workflow).toBeUndefined();
    expect(problems).toEqual([
      {
        code: 'model.type',
        message: 'expected a list of acts, got a string',
        path: 'steps[1].acts',
        position: { line: 5, col: 11 },
      },
    ]);
  });

  it('points into nested lists', () => {
    const { problems } = parseModel('id: m\nsteps:\n  - acts:\n      - uses: [a, b]\n');
    expect(problems).toEqual([
      {
        code: 'model.type',
        message: 'expected a string, got a list',
        path: 'steps[0].acts[0].uses',
        position: { line: 4, col: 15 },
      },
    ]);
  });

  it('reports several problems of one document at once', () => {
    const source = [
      'id: m', //                   1
      'ver: 1.5', //                2
      'inputs: [a, b]', //          3
      'on: manual', //              4
      'steps:', //                  5
      '  - name: {x: 1}', //        6
      '    branches:', //           7
      '      - else: maybe', //     8
      '        needs: b1', //       9
      '  - just a string', //       10
      '  - catches:', //            11
      '      - steps: 3', //        12
      '    timeout: [{on: 5s, steps: {}}]', // 13
      'inputs_schema: [1]', //      14
    ].join('\n');
    const { problems } = parseModel(source);
    const summary = problems.map((p) => [p.path, p.position?.line, p.position?.col, p.message]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['ver', 2, 6, 'expected a whole number'],
        ['inputs', 3, 9, 'expected a mapping of names to values, got a list'],
        ['on', 4, 5, 'expected a list of triggers, got a string'],
        ['steps[0].name', 6, 11, 'expected a string, got a mapping'],
        ['steps[0].branches[0].else', 8, 15, 'expected true or false, got a string'],
        ['steps[0].branches[0].needs', 9, 16, 'expected a list of branch ids, got a string'],
        ['steps[1]', 10, 5, 'expected a step (a mapping of fields), got a string'],
        ['steps[2].catches[0].steps', 12, 16, 'expected a list of steps, got a number'],
        ['steps[2].timeout[0].steps', 13, 31, 'expected a list of steps, got a mapping'],
        ['inputs_schema', 14, 16, 'expected a JSON Schema object, got a list'],
      ]),
    );
    expect(problems).toHaveLength(10);
    expect(problems.every((p) => p.code === 'model.type')).toBe(true);
  });

  it('locates type problems in JSON documents too', () => {
    const { problems } = parseModel('{\n  "id": "m",\n  "steps": [\n    { "acts": 5 }\n  ]\n}\n');
    expect(problems).toMatchObject([{ code: 'model.type', path: 'steps[0].acts', position: { line: 4, col: 15 } }]);
  });

  it('rejects a negative version', () => {
    expect(parseModel('id: m\nver: -1\n').problems).toMatchObject([{ code: 'model.type', path: 'ver' }]);
  });
});

describe('formatProblem', () => {
  it('renders file:line:col: message [code] (at path)', () => {
    const p: ModelProblem = { code: 'model.type', message: 'expected a list', path: 'steps[0].acts', position: { line: 3, col: 5 } };
    expect(formatProblem(p, 'flow.yml')).toBe('flow.yml:3:5: expected a list [model.type] (at steps[0].acts)');
    expect(formatProblem(p)).toBe('3:5: expected a list [model.type] (at steps[0].acts)');
    expect(formatProblem({ code: 'model.missing_id', message: 'no id', path: '' }, 'f.yml')).toBe('f.yml: no id [model.missing_id]');
    expect(formatProblem({ code: 'x', message: 'm', path: '' })).toBe('m [x]');
  });
});
