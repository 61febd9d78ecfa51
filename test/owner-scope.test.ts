/**
 * Owner scope and workdir confinement (spec 5.9): the owner comes from trusted server code, never
 * from start options, and is invisible to expressions; with a workdir root each process gets
 * `<root>/<pid>`, refused for unsafe pids, kept while the rows live and removed by the sweeper.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const FLOW = `
id: scoped
steps:
  - id: s1
    acts:
      - { uses: acts.transform.code, params: 'return { sawOwner: $get("$owner") !== null || Object.keys($data()).some((k) => k.includes("owner")) }' }
      - { uses: acts.core.irq, key: wait }
`;

describe('owner scope', () => {
  it('is taken from the trusted context, refused as a start option, and invisible to scripts', async () => {
    const store = new MemoryStore();
    const h = await createHarness({ store });
    open.push(h);
    await h.deploy(FLOW);
    await expect(h.engine.procs.start('scoped', { $owner: { id: 'mallory' } })).rejects.toMatchObject({ code: 'inputs.invalid' });
    expect((await h.engine.procs.list()).count).toBe(0);
    const started = await h.engine.procs.start('scoped', {}, { owner: { id: 'ana', roles: ['operator'] } });
    await h.settle();
    const detail = await h.proc(started.pid);
    expect(detail.owner).toBe('ana');
    expect(detail.tasks.find((t) => t.uses === 'acts.transform.code')!.data.sawOwner).toBe(false);
    expect(Object.keys(detail.tasks.find((t) => t.tid === '$')!.data)).toEqual([]);
    const restarted = await createHarness({ store });
    open.push(restarted);
    expect((await restarted.proc(started.pid)).owner).toBe('ana');
  });
});

describe('workdir confinement', () => {
  it('refuses unsafe pids, creates <root>/<pid>, and removes it with the rows', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'acts-workdirs-'));
    const h = await createHarness({ workdirRoot: root, sweepAfterSecs: 0 });
    open.push(h);
    await h.deploy(FLOW);
    for (const pid of ['../x', 'a/b', '..', '.', 'c\\d']) {
      await expect(h.engine.procs.start('scoped', { pid })).rejects.toMatchObject({ code: 'process.invalid_pid' });
    }
    expect(readdirSync(root)).toEqual([]);
    const pid = (await h.engine.procs.start('scoped', { pid: 'order-17' })).pid;
    await h.settle();
    const dir = path.join(root, 'order-17');
    expect(existsSync(dir)).toBe(true);
    expect((await h.proc(pid)).workdir).toBe(dir);
    await h.act('complete', 'wait');
    await h.tick(1000);
    expect(existsSync(dir)).toBe(false);
    await expect(h.proc(pid)).rejects.toMatchObject({ code: 'process.not_found' });
  });

  it('a caller scope can bring its own workdir root; a subflow child inherits it', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'acts-workdirs-'));
    const h = await createHarness();
    open.push(h);
    await h.deploy('id: child\nsteps: [ { id: c1, acts: [ { uses: acts.core.irq, key: inner } ] } ]');
    await h.deploy('id: parent\nsteps: [ { id: p1, acts: [ { uses: acts.core.subflow, params: { to: child } } ] } ]');
    const parent = await h.engine.procs.start('parent', {}, { owner: { id: 'bo', workdirRoot: root } });
    await h.settle();
    const child = h.created('inner').pid;
    expect(readdirSync(root).sort()).toEqual([parent.pid, child].sort());
    expect((await h.proc(child)).owner).toBe('bo');
  });
});
