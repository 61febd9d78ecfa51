/**
 * Hostile and runaway scripts inside workflows: each fails only its own act with a clear error;
 * the engine keeps serving other processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: { timeoutMs: 200 } });
  await h.deploy(`
id: healthy
steps:
  - { id: s1, acts: [ { uses: acts.transform.code, params: 'return { ok: 1 + 1 }' }, { uses: acts.core.irq, key: wait } ] }
`);
});
afterAll(async () => {
  await h.close();
});

const hostile: Array<[string, string, RegExp]> = [
  ['infinite loop', 'while (true) {}', /time limit/],
  ['huge allocation', "return 'x'.repeat(2 ** 28).length", /memory limit of 32 MiB/],
  ['allocation loop', 'const a = []; while (true) a.push(new Array(1e6).fill(1));', /memory limit|time limit/],
  ["require('fs')", "return require('fs').readFileSync('/etc/passwd', 'utf8')", /'require' is not defined/],
  ['process.exit()', 'process.exit(1)', /'process' is not defined/],
  ['constructor escape', "return globalThis.constructor.constructor('return process')().env", /'process' is not defined/],
  ['dynamic import', "return import('fs')", /promise, which has no JSON value/],
];

describe('hostile scripts fail only their act', () => {
  for (const [name, code, message] of hostile) {
    it(name, async () => {
      const id = `hostile-${name.replace(/[^a-z]/gi, '')}`;
      await h.deploy(`
id: ${id}
steps:
  - id: s1
    acts:
      - uses: acts.transform.code
        key: evil
        params: ${JSON.stringify(code)}
`);
      const healthy = await h.engine.procs.start('healthy');
      const evil = await h.engine.procs.start(id);
      const after = await h.engine.procs.start('healthy');
      await h.settle();
      const evilDetail = await h.proc(evil.pid);
      expect(evilDetail.state).toBe('error');
      const act = evilDetail.tasks.find((t) => t.key === 'evil')!;
      expect(act.state).toBe('error');
      expect(act.err?.ecode).toBe('');
      expect(act.err?.message).toMatch(message);
      for (const pid of [healthy.pid, after.pid]) {
        const detail = await h.proc(pid);
        expect(detail.state).toBe('running');
        expect(detail.tasks.find((t) => t.key === 'wait')?.state).toBe('interrupted');
        expect(detail.tasks.find((t) => t.uses === 'acts.transform.code')?.data.ok).toBe(2);
      }
    });
  }

  it('a runaway `if` or params template fails its act the same way', async () => {
    await h.deploy(`
id: runaway-if
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: gate, if: 'while (true) {}; true' } ] }
`);
    await h.deploy(`
id: runaway-params
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: p, params: { x: '{{ (() => { for (;;) {} })() }}' } } ] }
`);
    for (const id of ['runaway-if', 'runaway-params']) {
      const pid = await h.start(id);
      const detail = await h.proc(pid);
      expect(detail.state).toBe('error');
      expect(detail.err?.message).toMatch(/time limit/);
    }
    const ok = await h.start('healthy');
    expect((await h.proc(ok)).state).toBe('running');
  });
});
