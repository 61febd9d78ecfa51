/**
 * Engine features beyond Appendix A: script globals (2.12), act hooks and internal actions (1.9.2,
 * 2.8), catch outcomes (2.9), message production per kind (3.4), outside packages (1.9.1),
 * inputs_schema / exposes (section 0.18), step timeouts and block modes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

describe('script globals', () => {
  it('step proxies, $env, $set_process_var, secrets, user vars and $initiator', async () => {
    process.env.ACTS_TEST_OS_VAR = 'from-os';
    h.engine.registerVar('conf', { region: 'eu', level: 1 });
    await h.deploy(`
id: globals
env: { mode: test }
steps:
  - id: first
    acts:
      - uses: acts.transform.code
        params: |
          first.note = "written";
          $env.mode = "changed";
          $set_process_var("flag", true);
          return { os_var: $env.ACTS_TEST_OS_VAR, token: secrets.TOKEN, region: conf.region, level: conf.level, who: $initiator };
  - id: second
    acts:
      - uses: acts.core.irq
        key: look
        params: { note: '{{ first.note }}', mode: '{{ $env.mode }}', flag: '{{ flag }}', os: '{{ os }}' }
      - uses: acts.transform.code
        key: late
        params: 'first.note = "again"'
`);
    const pid = await h.start('globals', { secrets: { TOKEN: 't0k' }, conf: { level: 2 }, uid: 'ana' });
    const look = h.created('look');
    expect(look.inputs.params).toEqual({ note: 'written', mode: 'changed', flag: true, os: 'linux' });
    const code = (await h.proc(pid)).tasks.find((t) => t.nid === 'first')!;
    expect(code.data).toMatchObject({ os_var: 'from-os', token: 't0k', region: 'eu', level: 2, who: 'ana' });
    await h.act('complete', 'look');
    const late = (await h.proc(pid)).tasks.find((t) => t.key === 'late')!;
    expect(late.state).toBe('error');
    expect(late.err?.message).toMatch(/step 'first' is already completed/);
    delete process.env.ACTS_TEST_OS_VAR;
  });
});

describe('hooks and internal actions', () => {
  it('an on:created action hook completes its owning act', async () => {
    await h.deploy(`
id: auto
steps:
  - id: s1
    acts:
      - uses: acts.core.irq
        key: a1
        setup:
          - { uses: acts.core.action, on: created, params: { action: complete } }
      - { uses: acts.core.irq, key: a2 }
`);
    const pid = await h.start('auto');
    expect(await h.states(pid, h.find({ key: 'a1' })[0].nid)).toEqual(['completed']);
    expect(h.created('a2')).toBeTruthy();
  });

  it('acts.core.action submits or errors its step', async () => {
    await h.deploy(`
id: internal
inputs: { mode: submit }
steps:
  - id: s1
    acts:
      - { uses: acts.core.action, key: act, params: { action: '{{ mode }}', options: { ecode: stop } } }
      - { uses: acts.core.irq, key: never }
  - { id: s2, acts: [ { uses: acts.core.msg, key: after } ] }
`);
    const p1 = await h.start('internal');
    expect(await h.states(p1, 's1')).toEqual(['submitted']);
    expect(h.find({ key: 'never' })).toHaveLength(0);
    // like a submitted act, a submitted step ends its chain: s2 never runs
    expect(h.find({ key: 'after', pid: p1 })).toHaveLength(0);
    expect((await h.proc(p1)).state).toBe('completed');
    expect((await h.proc(p1)).tasks.find((t) => t.key === 'act')!.state).toBe('completed');

    const p2 = await h.start('internal', { mode: 'error' });
    expect(await h.states(p2, 's1')).toEqual(['error']);
    expect((await h.proc(p2)).err).toEqual({ ecode: 'stop', message: '' });
  });

  it('an unknown internal action fails the action act with a clear error', async () => {
    await h.deploy(`
id: badaction
steps:
  - { id: s1, acts: [ { uses: acts.core.action, key: act, params: { action: '{{ "fly" }}' } } ] }
`);
    const pid = await h.start('badaction');
    const act = (await h.proc(pid)).tasks.find((t) => t.key === 'act')!;
    expect(act.state).toBe('error');
    expect(act.err?.message).toMatch(/action/);
  });
});

describe('catch outcomes', () => {
  const model = (answer: string) => `
id: catch-${answer}
steps:
  - id: s1
    acts:
      - uses: acts.core.irq
        key: a1
        catches:
          - steps: [ { id: c1, acts: [ { uses: acts.core.irq, key: fix } ] } ]
      - { uses: acts.core.irq, key: next_one }
`;
  it('a skipped catch act still completes the caught act', async () => {
    await h.deploy(model('skip'));
    const pid = await h.start('catch-skip');
    await h.act('error', 'a1', { ecode: 'x' });
    await h.act('skip', 'fix');
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['completed']);
    expect(h.created('next_one')).toBeTruthy();
  });

  it('an error inside the catch propagates (no second catch on the same task)', async () => {
    await h.deploy(model('error'));
    const pid = await h.start('catch-error');
    await h.act('error', 'a1', { ecode: 'x' });
    await h.act('error', 'fix', { ecode: 'y' });
    expect((await h.proc(pid)).state).toBe('error');
    expect((await h.proc(pid)).err?.ecode).toBe('y');
  });

  it('a catch rule without steps ignores the error: the act completes and the chain goes on', async () => {
    await h.deploy(`
id: ignore
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: a1, catches: [ { on: minor } ] }
      - { uses: acts.core.irq, key: a2 }
`);
    const pid = await h.start('ignore');
    await h.act('error', 'a1', { ecode: 'minor' });
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['completed']);
    expect(h.created('a2')).toBeTruthy();
  });
});

describe('messages per node kind (3.4)', () => {
  it('msg acts only complete, func acts never speak unless skipped, branches never', async () => {
    await h.deploy(`
id: kinds
steps:
  - id: s1
    branches:
      - id: b1
        steps:
          - { id: x, acts: [ { uses: acts.transform.set, key: quiet, params: { a: 1 } }, { uses: acts.transform.set, key: off, if: 'false', params: { b: 1 } }, { uses: acts.core.msg, key: note } ] }
        if: 'true'
`);
    const pid = await h.start('kinds');
    expect(h.messages.filter((m) => m.pid === pid).map((m) => `${m.type}/${m.state}/${m.key}`)).toEqual([
      'workflow/created/kinds',
      'step/created/s1',
      'step/created/x',
      'act/skipped/off',
      'act/completed/note',
      'step/completed/x',
      'step/completed/s1',
      'workflow/completed/kinds',
    ]);
  });
});

describe('outside packages', () => {
  it('an irq package registered from outside is answered by a channel listener', async () => {
    await h.engine.packages.register({
      name: 'acme.sign',
      run_as: 'irq',
      schema: { type: 'object', required: ['document'], properties: { document: { type: 'string' } } },
    });
    h.engine.channel({ id: 'signer', uses: 'acme.sign', type: 'act', state: 'created' }).onMessage(async (m) => {
      const doc = (m.inputs.params as { document: string }).document;
      if (doc === 'bad') await h.engine.act.error(m.pid, m.tid, { ecode: 'unsigned' });
      else await h.engine.act.complete(m.pid, m.tid, { signature: `signed:${doc}` });
    });
    await h.deploy(`
id: sign
inputs: { doc: contract }
outputs: { signature: null }
steps:
  - { id: s1, acts: [ { uses: acme.sign, params: { document: '{{ doc }}' } } ] }
`);
    const ok = await h.start('sign');
    expect((await h.proc(ok)).outputs).toEqual({ signature: 'signed:contract' });
    const bad = await h.start('sign', { doc: 'bad' });
    expect((await h.proc(bad)).err?.ecode).toBe('unsigned');
    const invalid = await h.start('sign', { doc: 42 });
    expect((await h.proc(invalid)).err?.message).toMatch(/params of 'acme.sign' are invalid/);
    await expect(h.engine.packages.register({ name: 'x.func', run_as: 'func' })).rejects.toMatchObject({ code: 'package.invalid' });
    expect((await h.engine.packages.get('acme.sign')).built_in).toBe(false);
    expect((await h.engine.packages.get('acts.core.irq')).built_in).toBe(true);
  });
});

describe('inputs_schema and exposes (section 0.18)', () => {
  it('bad inputs create no process; outputs violating exposes end in error', async () => {
    await h.deploy(`
id: typed
inputs: { amount: 0 }
inputs_schema: { type: object, required: [amount, currency], properties: { amount: { type: number, minimum: 1 } } }
outputs: { total: '{{ amount * 2 }}' }
exposes: { type: object, properties: { total: { type: number, maximum: 100 } } }
steps: [ { id: s1 } ]
`);
    await expect(h.engine.procs.start('typed', { amount: 0 })).rejects.toThrow(/inputs validation error: .*currency.*|inputs validation error: .*amount/);
    expect((await h.engine.procs.list()).count).toBe(0);
    const ok = await h.start('typed', { amount: 10, currency: 'EUR' });
    expect((await h.proc(ok)).outputs).toEqual({ total: 20 });
    const big = await h.start('typed', { amount: 60, currency: 'EUR' });
    const detail = await h.proc(big);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/exposes/);
    expect(h.errored.map((m) => m.pid)).toEqual([big]);
  });
});

describe('fan-out and timeouts', () => {
  it('block in parallel mode starts every act at once', async () => {
    await h.deploy(`
id: block
steps:
  - id: s1
    acts:
      - uses: acts.core.block
        params:
          mode: parallel
          acts: [ { uses: acts.core.irq, key: x }, { uses: acts.core.irq, key: y } ]
`);
    const pid = await h.start('block');
    expect(h.find({ state: 'created', type: 'act' }).map((m) => m.key)).toEqual(['x', 'y']);
    await h.act('complete', 'y');
    await h.act('complete', 'x');
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('an empty fan-out completes at once; a non-array `in` fails the act', async () => {
    await h.deploy(`
id: empty-fan
inputs: { items: [] }
steps:
  - { id: s1, acts: [ { uses: acts.core.parallel, key: fan, params: { in: '{{ items }}', acts: [ { uses: acts.core.irq } ] } } ] }
`);
    expect((await h.proc(await h.start('empty-fan'))).state).toBe('completed');
    const bad = await h.start('empty-fan', { items: 'nope' });
    expect((await h.proc(bad)).err?.message).toMatch(/'in' must evaluate to an array/);
  });

  it('a step-level timeout fires once and only while the step is open', async () => {
    await h.deploy(`
id: steptime
steps:
  - id: s1
    timeout: [ { on: 1m, steps: [ { id: t, acts: [ { uses: acts.core.msg, key: late } ] } ] } ]
    acts: [ { uses: acts.core.irq, key: a1 } ]
`);
    const p1 = await h.start('steptime');
    await h.tick(59_000);
    expect(h.find({ key: 'late' })).toHaveLength(0);
    await h.tick(1_000);
    await h.tick(60_000);
    expect(h.find({ key: 'late', pid: p1 })).toHaveLength(1);
    await h.act('complete', 'a1', {}, p1);
    expect((await h.proc(p1)).state).toBe('completed');
    const p2 = await h.start('steptime');
    await h.act('complete', 'a1', {}, p2);
    await h.tick(120_000);
    expect(h.find({ key: 'late', pid: p2 })).toHaveLength(0);
  });
});

describe('model tree and channel unsub', () => {
  it('prints the compiled tree with chains, branches, catches, hooks and loops', async () => {
    await h.deploy(`
id: shape
setup: [ { id: fin, uses: acts.core.msg, on: completed } ]
steps:
  - id: s1
    branches:
      - { id: b1, if: 'true', steps: [ { id: inner, acts: [ { id: work, uses: acts.core.irq } ] } ] }
  - id: s2
    acts:
      - id: risky
        uses: acts.core.irq
        catches: [ { on: e1, steps: [ { id: fix } ] } ]
    next: s1
`);
    expect(await h.engine.models.tree('shape')).toBe(
      [
        'workflow shape',
        '  on completed: act fin (acts.core.msg)',
        '  step s1',
        '    branch b1',
        '      step inner',
        '        act work (acts.core.irq)',
        '  step s2',
        '    act risky (acts.core.irq)',
        '      catch e1:',
        '        step fix',
        '  → next s1',
      ].join('\n'),
    );
  });

  it('unsub removes a channel by id', async () => {
    const seen: string[] = [];
    h.engine.channel({ id: 'tmp' }).onMessage((m) => void seen.push(m.key));
    expect(h.engine.unsub('tmp')).toBe(true);
    expect(h.engine.unsub('tmp')).toBe(false);
    await h.deploy('id: u\nsteps: [ { id: s1 } ]');
    await h.start('u');
    expect(seen).toEqual([]);
  });
});

describe('loops keep what the loop body produced', () => {
  it('outputs of acts inside a branch that jumps back reach the process variables', async () => {
    await h.deploy(`
id: jump
inputs: { index: 0 }
outputs: { who: null }
steps:
  - id: cond
    branches:
      - id: more
        if: index < 1
        steps:
          - id: ask
            acts:
              - { uses: acts.core.irq, key: approve, outputs: { who: null } }
              - { uses: acts.transform.code, params: '$set("index", index + 1);' }
            next: cond
      - { id: done, else: true, steps: [ { id: finish } ] }
`);
    const pid = await h.start('jump');
    await h.act('complete', 'approve', { who: 'x' });
    const detail = await h.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.outputs).toEqual({ who: 'x' });
  });
});

describe('checking a model', () => {
  it('answers a text checked before from memory, until a package changes', async () => {
    const source = 'id: checked\nsteps: [ { id: s1, acts: [ { uses: acme.later, key: g } ] } ]';
    const first = h.engine.models.check(source);
    expect(first.problems.map((p) => p.message).join()).toMatch(/acme.later/);
    expect(h.engine.models.check(source)).toBe(first);
    await h.engine.packages.register({ name: 'acme.later', run_as: 'irq' });
    expect(h.engine.models.check(source).problems).toEqual([]);
    await h.engine.packages.remove('acme.later');
    expect(h.engine.models.check(source).problems).toHaveLength(first.problems.length);
  });

  it('a deploy remembers its check: the designer opening the deployed text is answered at once', async () => {
    const source = 'id: deployed-check\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ok } ] } ]';
    await h.deploy(source);
    const answer = h.engine.models.check(source);
    expect(answer.problems).toEqual([]);
    expect(h.engine.models.check(source)).toBe(answer);
  });
});

describe('bad input at run time', () => {
  it('a package that disappeared after deploy fails only the processes that use it', async () => {
    await h.engine.packages.register({ name: 'acme.gone', run_as: 'irq' });
    await h.deploy('id: uses-gone\nsteps: [ { id: s1, acts: [ { uses: acme.gone, key: g } ] } ]');
    await h.deploy('id: fine\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ok } ] } ]');
    await h.engine.packages.remove('acme.gone');
    const broken = await h.start('uses-gone');
    const fine = await h.start('fine');
    const detail = await h.proc(broken);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/unknown package 'acme.gone'/);
    expect((await h.proc(fine)).state).toBe('running');
  });
});
