/**
 * Crash equivalence accepts a race a recovery settled the other way, and nothing else
 * (test/sim/admissible.ts): first the rule over digests — a family ends as in the base run, or,
 * when it ran subflow children, as in one crash-free run in another order — then the search
 * for those runs on a real seed, which still fails an end no order reaches.
 */
import { describe, expect, it } from 'vitest';
import { changedFamilies, families, inadmissibleFamilies, rootOf } from './sim/admissible.ts';
import { crashEquivalence, judgeCrash } from './sim/crash-equivalence.ts';

/** A root's digest line: its act a7 ended `completed` and `skipped` as many times as given. */
function root(pid: string, completed: number, skipped: number, extra: { state?: string; outputs?: string; tasks?: string[] } = {}): string {
  const tasks = [...Array<string>(completed).fill('m0/s1/a7=completed'), ...Array<string>(skipped).fill('m0/s1/a7=skipped'), 'm0/s1=completed', 'm0=completed', ...(extra.tasks ?? [])].sort();
  return `${pid} m0 ${extra.state ?? 'completed'} ecode=- outputs=${extra.outputs ?? '{"v1":0}'} tasks=[${tasks.join(' ')}]`;
}

/** The child of one completed a7 (the children of skipped ones were cut off and are not in a digest). */
const child = (pid: string, outputs = '{"v1":0}') => `${pid}>m0/s1/a7 m1 completed ecode=- outputs=${outputs} tasks=[m1/a5=completed m1=completed]`;

function digest(...families: Array<[string, number, number]>): string[] {
  return families.flatMap(([pid, completed, skipped]) => [root(pid, completed, skipped), ...Array<string>(completed).fill(child(pid))]).sort();
}

// seed 800265 in small: p1 and p2 each race their a7 against a loop; the crash settles both the other way
const base = digest(['p1', 3, 0], ['p2', 2, 1]);
const crashed = digest(['p1', 2, 1], ['p2', 3, 0]);
/** Crash-free runs in other orders: one settles p1's race as the crash did, the other p2's. */
const orderA = digest(['p1', 2, 1], ['p2', 2, 1]);
const orderB = digest(['p1', 3, 0], ['p2', 3, 0]);

/** `crashed` with p1's family replaced by these lines. */
const withP1 = (...lines: string[]) => [...crashed.filter((l) => rootOf(l) !== 'p1'), ...lines].sort();

describe('the admissible ends after a crash', () => {
  it('groups a digest by family: a root and the children under it', () => {
    expect([...families(base).keys()]).toEqual(['p1', 'p2']);
    expect(families(base).get('p1')).toEqual([root('p1', 3, 0), child('p1'), child('p1'), child('p1')]);
  });

  /** Both families ran subflow children (their races). */
  const raced = new Set(['p1', 'p2']);
  const witnesses = [orderA, orderB];
  const judge = (end: string[], others = witnesses, races = raced) => inadmissibleFamilies(end, base, others, races);

  it("accepts the base run's own end, raced or not", () => {
    expect(judge(base, [], new Set())).toEqual([]);
    expect(changedFamilies(base, base)).toEqual([]);
  });

  it('accepts two races settled the other way when crash-free runs settle each so (the swap of seed 800265)', () => {
    expect(changedFamilies(crashed, base)).toEqual(['p1', 'p2']);
    expect(judge(crashed)).toEqual([]);
  });

  it('does not take processes as interchangeable: the same swap with no crash-free run that settles it so fails', () => {
    expect(judge(crashed, [])).toEqual(['p1', 'p2']);
    expect(judge(crashed, [orderA])).toEqual(['p2']);
  });

  it('holds a family of one process (no subflow child) to the base run, whatever a run in another order did', () => {
    expect(judge(crashed, witnesses, new Set(['p2']))).toEqual(['p1']);
    expect(judge(crashed, witnesses, new Set())).toEqual(['p1', 'p2']);
  });

  it('fails a lost act: a7 completed once less and not skipped either', () => {
    expect(judge(withP1(root('p1', 1, 1), child('p1')))).toEqual(['p1']);
  });

  it('fails an act run twice: a7 completed once more, with its child', () => {
    expect(judge(withP1(root('p1', 3, 1), child('p1'), child('p1'), child('p1')))).toEqual(['p1']);
  });

  it('fails a lost step elsewhere in a family whose race is admissible', () => {
    expect(judge(withP1(root('p1', 2, 1).replace(' m0/s1=completed', ''), child('p1'), child('p1')))).toEqual(['p1']);
  });

  it('fails a process that hangs, and other outputs', () => {
    expect(judge(withP1(root('p1', 2, 1, { state: 'running' }), child('p1'), child('p1')))).toEqual(['p1']);
    expect(judge(withP1(root('p1', 2, 1, { outputs: '{"v1":3}' }), child('p1'), child('p1')))).toEqual(['p1']);
  });

  it('fails a lost, an extra or a changed child process', () => {
    expect(judge(withP1(root('p1', 2, 1), child('p1')))).toEqual(['p1']);
    expect(judge(withP1(root('p1', 2, 1), child('p1'), child('p1'), child('p1')))).toEqual(['p1']);
    expect(judge(withP1(root('p1', 2, 1), child('p1'), child('p1', '{"v1":3}')))).toEqual(['p1']);
  });

  it('fails a process lost or added by the crash', () => {
    expect(judge(crashed.filter((l) => rootOf(l) !== 'p2'))).toEqual(['p2']);
    expect(judge([...crashed, root('p9', 1, 0)].sort(), witnesses, new Set([...raced, 'p9']))).toEqual(['p9']);
  });

  it("takes a family's lines from one crash-free run, never line by line from several", () => {
    // order C settles the race as the crash did but its child ended otherwise; base's child is the crash's
    const orderC = [...base.filter((l) => rootOf(l) !== 'p1'), root('p1', 2, 1), child('p1', '{"v1":3}'), child('p1', '{"v1":3}')].sort();
    expect(judge(crashed, [orderC, orderB])).toEqual(['p1']);
  });
});

describe('the search for crash-free orders', () => {
  const seed = 800265;
  const at = 65;

  it(`seed ${seed} crashed after write ${at}: both races settled the other way are found in other orders; a tampered end is not, and an unraced family is held to the base run`, async () => {
    const check = await crashEquivalence(seed, { at });
    expect(check.violations.map((v) => `${v.invariant}: ${v.detail}`)).toEqual([]);
    expect(check.reordered).toEqual(['p1', 'p2']);
    const { base, crashed } = check;
    // the crashed end with one act of p1 lost: completed in every order, so no replay ends so
    const lost = crashed!.digest.map((line) => (line.startsWith('p1 ') ? line.replace('m0/s1/b1/s2/b4/s4/b2/s5/a5=completed ', '') : line));
    expect(lost).not.toEqual(crashed!.digest);
    const verdict = await judgeCrash(seed, at, base, { ...crashed!, digest: lost }, 4);
    expect(verdict.violations.map((v) => v.invariant)).toEqual(['crash-equivalence']);
    expect(verdict.violations[0].detail).toContain('changed the final state of p1:');
    expect(verdict.replays).toBe(4);
    // had p0 run no subflow child (one process, one order), a change of it fails, whatever another order does
    expect(check.base.raced).toEqual(['p0', 'p1', 'p2']);
    const hung = crashed!.digest.map((line) => (line.startsWith('p0 ') ? line.replace(' completed ecode', ' running ecode') : line));
    const alone = (run: typeof base) => ({ ...run, raced: run.raced.filter((root) => root !== 'p0') });
    const unraced = await judgeCrash(seed, at, alone(base), { ...alone(crashed!), digest: hung });
    expect(unraced.violations[0].detail).toContain('changed the final state of p0:\np0: it ran no subflow child');
    expect(unraced.reordered).toEqual(['p1', 'p2']);
  }, 120_000);
});
