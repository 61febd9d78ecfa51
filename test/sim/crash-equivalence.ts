/**
 * Crash equivalence (issue 9): a seed run on SQLite, then the same seed with the store dying after
 * a random number of its writes (a job boundary: a commit) and a new engine recovering on the same
 * file, must reach the same final state — every process's state, error code, outputs and the
 * states of its tasks by place — with every invariant holding in both runs.
 *
 * "The same" means: as the base run ended, or, for a family of processes (a root and its subflow
 * children) whose race the recovery settled the other way, as that family ends in a crash-free replay of the crashed
 * run's stimuli in another interleaving (the rule and why it hides no fault: admissible.ts). The
 * replays are made only when a raced family's end differs, at most `maxOrders` of them, until
 * every changed raced family is found; a replay that breaks an invariant is no witness (and is
 * named in the report).
 */
import { changedFamilies, families, inadmissibleFamilies } from './admissible.ts';
import type { Violation } from './invariants.ts';
import type { Regression } from './regression.ts';
import { Rng } from './rng.ts';
import { simulate, type SimResult } from './world.ts';

/** Crash-free replays in other orders made at most, per crash check that differs. */
export const MAX_ORDERS = 24;

export interface CrashCheck extends Verdict {
  seed: number;
  /** The crash point: after this many writes of the run. */
  at: number;
  base: SimResult;
  crashed: SimResult | undefined;
}

/** The first lines where two digests differ, for the report. */
function difference(a: string[], b: string[]): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && lines.length < 4; i++) {
    if (a[i] !== b[i]) lines.push(`  without the crash: ${a[i] ?? '(nothing)'}\n  after the crash:   ${b[i] ?? '(nothing)'}`);
  }
  return lines.join('\n');
}

export interface CrashOptions {
  /** The crash point (default: drawn from the seed, within the writes of the run). */
  at?: number;
  /** A stored case instead of the seed's generated scenario. */
  regression?: Regression;
  log?: (line: string) => void;
  /** Replays in other orders at most (default MAX_ORDERS). */
  maxOrders?: number;
}

interface Search {
  /** The digests of the replays that broke no invariant. */
  others: string[][];
  replays: number;
  /** The first invariant a replay broke (such a replay is no witness: a script replayed by place may not fit another order). */
  broken?: string;
}

/**
 * Replays the crashed run's stimuli without a crash, in order 1, 2, … (the crashed run's own
 * order 0 first when its stimuli differ from the base run's), until the rule admits every raced
 * family of the crashed run (the others no replay can admit). A replay that broke an invariant is
 * not counted.
 */
async function searchOrders(seed: number, base: SimResult, crashed: SimResult, raced: ReadonlySet<string>, maxOrders: number): Promise<Search> {
  const replay: Regression = { name: `seed ${seed} after its crash`, note: '', seed, store: 'sqlite', limits: crashed.limits, models: crashed.models, script: crashed.script };
  const search: Search = { others: [], replays: 0 };
  const first = JSON.stringify(base.script) === JSON.stringify(crashed.script) ? 1 : 0;
  const open = () => inadmissibleFamilies(crashed.digest, base.digest, search.others, raced).some((root) => raced.has(root));
  for (let order = first; order < first + maxOrders && open(); order++) {
    const run = await simulate({ seed, store: 'sqlite', regression: replay, order });
    search.replays++;
    const [broken] = run.violations;
    if (broken) search.broken ??= `order ${order}: ${broken.invariant}: ${broken.detail}`;
    else search.others.push(run.digest);
  }
  return search;
}

export interface Verdict {
  violations: Violation[];
  /** Families that ended otherwise than in the base run, each as a crash-free run in another order does. */
  reordered: string[];
  /** Crash-free replays in other orders that the check made. */
  replays: number;
}

/** A verdict that looked for no other order: `violations` as they are. */
const plainVerdict = (violations: Violation[]): Verdict => ({ violations, reordered: [], replays: 0 });

/** Why each family the rule does not admit is not admitted, and where it differs from the base run. */
function report(at: number, base: SimResult, crashed: SimResult, bad: string[], raced: ReadonlySet<string>, search: Search): Violation {
  const [mine, theirs] = [families(crashed.digest), families(base.digest)];
  const why = (root: string) => (raced.has(root) ? `no crash-free run of the same stimuli ended so (the base run and ${search.replays} in other orders)` : 'it ran no subflow child, so one order and the end it had without the crash');
  const detail = bad.map((root) => `${root}: ${why(root)}\n${difference(theirs.get(root) ?? [], mine.get(root) ?? [])}`).join('\n');
  const broken = search.broken ? `\n(a replay not counted: ${search.broken})` : '';
  return { invariant: 'crash-equivalence', detail: `a crash after write ${at} of ${base.writes} changed the final state of ${bad.join(', ')}:\n${detail}${broken}` };
}

/**
 * Whether a crashed run that broke no invariant ended admissibly (admissible.ts): as the base run,
 * or, for a family with subflow children, as a crash-free replay of its stimuli in another order
 * (looked for only when such a family changed).
 */
export async function judgeCrash(seed: number, at: number, base: SimResult, crashed: SimResult, maxOrders = MAX_ORDERS): Promise<Verdict> {
  const changed = changedFamilies(crashed.digest, base.digest);
  if (changed.length === 0) return plainVerdict([]);
  const raced = new Set([...base.raced, ...crashed.raced]);
  const search = changed.some((root) => raced.has(root)) ? await searchOrders(seed, base, crashed, raced, maxOrders) : { others: [], replays: 0 };
  const bad = inadmissibleFamilies(crashed.digest, base.digest, search.others, raced);
  const reordered = changed.filter((root) => !bad.includes(root));
  return { violations: bad.length > 0 ? [report(at, base, crashed, bad, raced, search)] : [], reordered, replays: search.replays };
}

export async function crashEquivalence(seed: number, options: CrashOptions = {}): Promise<CrashCheck> {
  const { regression } = options;
  const base = await simulate({ seed, store: 'sqlite', regression });
  const at = options.at ?? new Rng(seed ^ 0x5eed).int(1, Math.max(1, base.writes));
  if (base.violations.length > 0) return { seed, at, base, crashed: undefined, ...plainVerdict(base.violations) };
  const crashed = await simulate({ seed, store: 'sqlite', crashAfterWrites: at, regression, log: options.log });
  if (crashed.violations.length > 0) return { seed, at, base, crashed, ...plainVerdict(crashed.violations) };
  return { seed, at, base, crashed, ...(await judgeCrash(seed, at, base, crashed, options.maxOrders)) };
}
