/**
 * The seeded simulation (issue 9) in the test run: a fixed set of seeds on the memory store, a
 * smaller set with crash equivalence on SQLite, every stored regression case, determinism, and
 * the invariants themselves catching the faults they name. `npm run sim` runs long campaigns.
 */
import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../server/runtime/info.ts';
import type { ProcRow } from '../server/store/contract/types.ts';
import { crashEquivalence } from './sim/crash-equivalence.ts';
import { generateScenario } from './sim/generate.ts';
import { migrated, refused } from './sim/migration-watch.ts';
import { modelFacts } from './sim/model-facts.ts';
import { editModel } from './sim/model-edits.ts';
import { Rng } from './sim/rng.ts';
import { checkInvariants, type HistoryEntry, type ProcView, type Violation, type WorldView } from './sim/invariants.ts';
import { allRegressions } from './sim/regression.ts';
import { simulate } from './sim/world.ts';

const MEMORY_SEEDS = 400;
const CHUNK = 50;
const CRASH_SEEDS = [3, 7, 12, 19, 23, 31, 42, 58, 64, 77, 85, 96];
/**
 * Seeds whose failure was the simulated client's, not the engine's: a stored script replays by
 * place, so it cannot hold them as regression cases; the seed and its crash point do.
 */
const PINNED_CRASHES = [
  {
    seed: 112670,
    at: 9,
    note: 'after a crash, the client looks at the recovered engine before it sends its next start (sent into a recovery under way, it took the slot a recovered subflow child took without the crash)',
  },
];

function report(seed: number, violations: Violation[], replay: string): string {
  return `seed ${seed}: ${violations[0].invariant}\n${violations[0].detail}\nreplay: ${replay}`;
}

describe('simulation on the memory store', () => {
  for (let from = 1; from <= MEMORY_SEEDS; from += CHUNK) {
    it(`seeds ${from}–${from + CHUNK - 1} keep every invariant`, async () => {
      const failures: string[] = [];
      for (let seed = from; seed < from + CHUNK; seed++) {
        const result = await simulate({ seed, store: 'memory' });
        if (result.violations.length > 0) failures.push(report(seed, result.violations, `npm run sim -- --seed ${seed} --verbose`));
      }
      expect(failures).toEqual([]);
    }, 120_000);
  }
});

describe('crash equivalence on SQLite', () => {
  it(`${CRASH_SEEDS.length} seeds reach the same end with a crash and a restart in the middle`, async () => {
    const failures: string[] = [];
    let crashes = 0;
    for (const seed of CRASH_SEEDS) {
      const check = await crashEquivalence(seed);
      crashes += check.crashed?.crashes ?? 0;
      if (check.violations.length > 0) failures.push(report(seed, check.violations, `npm run sim -- --seed ${seed} --store sqlite --crash-at ${check.at} --verbose`));
    }
    expect(failures).toEqual([]);
    expect(crashes).toBe(CRASH_SEEDS.length);
  }, 180_000);
});

describe('pinned crash points', () => {
  for (const { seed, at, note } of PINNED_CRASHES) {
    it(`seed ${seed} crashed after write ${at}: ${note}`, async () => {
      const check = await crashEquivalence(seed, { at });
      expect(check.crashed?.crashes).toBe(1);
      expect(check.violations.map((v) => `${v.invariant}: ${v.detail}`), `npm run sim -- --seed ${seed} --store sqlite --crash-at ${at} --verbose`).toEqual([]);
    }, 60_000);
  }
});

describe('regression cases', () => {
  const cases = allRegressions();
  it('are stored', () => expect(cases.length).toBeGreaterThan(0));
  for (const { file, regression } of cases) {
    it(`${regression.name}: ${regression.note}`, async () => {
      const { seed } = regression;
      const violations =
        regression.crashAfterWrites === undefined
          ? (await simulate({ seed, store: regression.store, regression })).violations
          : (await crashEquivalence(seed, { at: regression.crashAfterWrites, regression })).violations;
      expect(violations.map((v) => `${v.invariant}: ${v.detail}`), `npm run sim -- --replay ${file} --verbose`).toEqual([]);
    }, 60_000);
  }
});

describe('the simulation', () => {
  it('is deterministic: a seed makes the same choices and reaches the same end every time', async () => {
    const a = await simulate({ seed: 6, store: 'memory' });
    const b = await simulate({ seed: 6, store: 'memory' });
    expect(a.actions).toBeGreaterThan(5);
    expect(b.script).toEqual(a.script);
    expect(b.digest).toEqual(a.digest);
  });

  it('is deterministic on SQLite too: the same writes and the same end every time (the crash points are drawn from them)', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await simulate({ seed: 130175, store: 'sqlite' }));
    for (const run of runs.slice(1)) {
      expect(run.writes).toBe(runs[0].writes);
      expect(run.digest).toEqual(runs[0].digest);
    }
  }, 60_000);

  it('draws second versions that deploy, with plans that name only nodes of the two versions', () => {
    let edits = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Rng(seed);
      for (const model of generateScenario(rng.fork()).models) {
        const edit = editModel(model.source, rng);
        if (!edit) continue;
        edits++;
        const target = modelFacts(edit.source).nodes;
        expect(edit.source).not.toBe(model.source);
        for (const [from, to] of Object.entries(edit.plan.map)) expect([model.nodes.has(from), target.has(to)], `${seed}: ${from} → ${to}`).toEqual([true, true]);
        for (const nid of Object.keys(edit.plan.removed)) expect([model.nodes.has(nid), target.has(nid)], `${seed}: removed ${nid}`).toEqual([true, false]);
      }
    }
    expect(edits).toBeGreaterThan(40);
  });

  it('migrates running processes: a seed deploys a second version and moves its processes there', async () => {
    const run = await simulate({ seed: 4, store: 'memory' });
    expect(run.violations).toEqual([]);
    expect(run.script.filter((s) => 'deploy' in s)).toHaveLength(1);
    expect(run.script.filter((s) => 'action' in s && s.action === 'migrate').length).toBeGreaterThan(0);
  });

  it('replays a run from its stored script to the same end', async () => {
    const run = await simulate({ seed: 99, store: 'memory' });
    const replay = await simulate({ seed: 99, store: 'memory', regression: { name: 'r', note: '', seed: 99, store: 'memory', limits: run.limits, models: run.models, script: run.script } });
    expect(replay.violations).toEqual([]);
    expect(replay.digest).toEqual(run.digest);
  });
});

// ---- the invariants catch what they name ----

let seq = 0;
function task(tid: string, state: string, parent: string | null, extra: Partial<TaskInfo> = {}): TaskInfo {
  return { pid: 'p', tid, nid: extra.nid ?? `n${tid}`, kind: 'step', name: '', key: '', uses: '', tag: '', state, prev: parent, parent, hook: false, data: {}, inputs: {}, outputs: {}, params: null, err: null, start_time: ++seq, end_time: 0, ...extra };
}

function proc(state: string, tasks: TaskInfo[], row: Partial<ProcRow> = {}): ProcView {
  const full: ProcRow = { id: 'p', state, mid: 'm', name: '', start_time: 0, end_time: 0, model: '', model_ver: 1, env: {}, err: null, parent_pid: null, parent_tid: null, timestamp: 0, owner: null, ...row } as ProcRow;
  return { name: full.id, row: full, tasks };
}

function world(procs: ProcView[], extra: Partial<WorldView> = {}): WorldView {
  return { procs, ops: [], stuck: [], resident: procs.length, cacheCap: 10, final: false, models: [], ...extra };
}

const names = (violations: Violation[]) => violations.map((v) => v.invariant);

describe('the invariants', () => {
  it('hold for a healthy world', () => {
    const view = world([proc('running', [task('$', 'running', null, { kind: 'workflow' }), task('a', 'interrupted', '$', { kind: 'act' })])]);
    expect(checkInvariants(view, [])).toEqual([]);
  });

  it('liveness: a process the engine reports as stuck', () => {
    const view = world([proc('running', [task('$', 'running', null)])], { stuck: [{ pid: 'p', mid: 'm', state: 'running', tasks: ['$ m workflow running'] }] });
    expect(names(checkInvariants(view, []))).toEqual(['liveness']);
  });

  it('a finished process with an open task, and an open task under a closed one', () => {
    expect(names(checkInvariants(world([proc('completed', [task('$', 'completed', null), task('a', 'interrupted', '$')])]), []))).toEqual(['finished-has-open-tasks']);
    expect(names(checkInvariants(world([proc('running', [task('$', 'running', null), task('s', 'completed', '$'), task('b', 'pending', 's')])]), []))).toEqual(['stale-open-task']);
  });

  it('an act completed twice in one place, and one message sent twice for one transition', () => {
    const twice = proc('running', [task('$', 'running', null), task('a1', 'completed', '$', { kind: 'act', nid: 'x' }), task('a2', 'completed', '$', { kind: 'act', nid: 'x' }), task('i', 'interrupted', '$', { kind: 'act' })]);
    expect(names(checkInvariants(world([twice]), []))).toEqual(['act-ran-twice']);
    const history: HistoryEntry[] = [
      { kind: 'task', pid: 'p', tid: 'a', nid: 'x', type: 'act', state: 'completed' },
      { kind: 'message', pid: 'p', tid: 'a', nid: 'x', type: 'act', state: 'completed' },
      { kind: 'message', pid: 'p', tid: 'a', nid: 'x', type: 'act', state: 'completed' },
    ];
    expect(names(checkInvariants(world([]), history))).toEqual(['message-once', 'act-completed-once']);
  });

  it('parent and child disagree; parked work while a slot is free; open records at the end', () => {
    const parent = proc('running', [task('$', 'running', null), task('call', 'skipped', '$', { kind: 'act' }), task('i', 'interrupted', '$', { kind: 'act' })]);
    const child = { ...proc('running', [task('$', 'running', null), task('c', 'interrupted', '$', { kind: 'act' })], { id: 'c', parent_pid: 'p', parent_tid: 'call' }), name: 'p>call' };
    expect(names(checkInvariants(world([parent, child]), []))).toEqual(['subflow-agreement']);
    const parked = proc('none', [task('$', 'none', null)]);
    expect(names(checkInvariants(world([parked], { resident: 0 }), []))).toEqual(['admission']);
    const done = proc('completed', [task('$', 'completed', null)]);
    const op = { id: 'o', type: 'exec' as const, pid: 'p', tid: '$', event: null, options: null, status: 'pending' as const, create_time: 0, update_time: 0 };
    expect(names(checkInvariants(world([done], { final: true, ops: [op] }), []))).toEqual(['outbox-done']);
  });

  it('a live task at a node its version does not have; a migration that did not reach its target or a refused one that moved a task', () => {
    const v1 = 'id: m0\nsteps:\n  - { id: s1, acts: [ { id: a1, uses: acts.core.irq } ] }\n';
    const v2 = v1.replaceAll('1', '2').replace('m2', 'm0');
    const at = (nid: string, state: string, source: string, ver = 1) => proc('running', [task('$', 'running', null, { nid: 'm0' }), task('s', 'running', '$', { nid: nid.replace('a', 's') }), task('a', state, 's', { kind: 'act', nid })], { model: source, model_ver: ver });
    expect(checkInvariants(world([at('a1', 'interrupted', v1)]), [])).toEqual([]);
    expect(names(checkInvariants(world([at('a1', 'interrupted', v2)]), []))).toEqual(['task-off-version']);
    const snap = (p: ProcView) => ({ name: p.name, row: p.row, tasks: p.tasks });
    expect(migrated(snap(at('a2', 'interrupted', v2, 2)), 2, v2)).toEqual([]);
    expect(names(migrated(snap(at('a2', 'interrupted', v2, 2)), 3, v2))).toEqual(['migration-target']);
    expect(refused(snap(at('a1', 'interrupted', v1)), snap(at('a1', 'interrupted', v1)), [])).toEqual([]);
    expect(names(refused(snap(at('a1', 'interrupted', v1)), snap(at('a1', 'completed', v1)), []))).toEqual(['migration-refused-changed']);
  });
});
