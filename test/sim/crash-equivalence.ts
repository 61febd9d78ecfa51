/**
 * Crash equivalence (issue 9): a seed run on SQLite, then the same seed with the store dying after
 * a random number of its writes (a job boundary: a commit) and a new engine recovering on the same
 * file, must reach the same final state — every process's state, error code, outputs and the
 * states of its tasks by place — with every invariant holding in both runs.
 *
 * "The same" means: as the base run ended, or, for a family of processes whose race the recovery
 * settled the other way, as that family ends in a crash-free replay of the crashed run's stimuli
 * in another interleaving (the rule and why it hides no fault: admissible.ts). The replays are
 * made only when the digests differ, at most `maxOrders` of them, until every changed family is
 * found; a replay that breaks an invariant is no witness (and is named in the report).
 */
import { changedFamilies, families, unmatchedFamilies } from './admissible.ts';
import type { Violation } from './invariants.ts';
import type { Regression } from './regression.ts';
import { Rng } from './rng.ts';
import { simulate, type SimResult } from './world.ts';

/** Crash-free replays in other orders made at most, per crash check that differs. */
export const MAX_ORDERS = 24;

export interface CrashCheck {
  seed: number;
  /** The crash point: after this many writes of the run. */
  at: number;
  base: SimResult;
  crashed: SimResult | undefined;
  violations: Violation[];
  /** Families that ended otherwise than in the base run, each as a crash-free run in another order does. */
  reordered: string[];
  /** Crash-free replays in other orders that the check made. */
  replays: number;
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
  unmatched: string[];
  replays: number;
  /** The first invariant a replay broke (such a replay is no witness: a script replayed by place may not fit another order). */
  broken?: string;
}

/**
 * Replays the crashed run's stimuli without a crash, in order 1, 2, … (the crashed run's own
 * order 0 first when its stimuli differ from the base run's), until every family of the crashed
 * run ended as in one of them or in the base run. A replay that broke an invariant is not counted.
 */
async function searchOrders(seed: number, base: SimResult, crashed: SimResult, maxOrders: number): Promise<Search> {
  const replay: Regression = { name: `seed ${seed} after its crash`, note: '', seed, store: 'sqlite', limits: crashed.limits, models: crashed.models, script: crashed.script };
  const witnesses = [base.digest];
  const unmatched = unmatchedFamilies(crashed.digest, witnesses);
  const first = JSON.stringify(base.script) === JSON.stringify(crashed.script) ? 1 : 0;
  const search: Search = { unmatched, replays: 0 };
  for (let order = first; order < first + maxOrders && search.unmatched.length > 0; order++) {
    const run = await simulate({ seed, store: 'sqlite', regression: replay, order });
    search.replays++;
    const [broken] = run.violations;
    if (broken) search.broken ??= `order ${order}: ${broken.invariant}: ${broken.detail}`;
    else witnesses.push(run.digest);
    search.unmatched = unmatchedFamilies(crashed.digest, witnesses);
  }
  return search;
}

export interface Verdict {
  violations: Violation[];
  reordered: string[];
  replays: number;
}

/**
 * Whether a crashed run that broke no invariant ended admissibly (admissible.ts): as the base run,
 * or family by family as a crash-free replay of its stimuli in another order.
 */
export async function judgeCrash(seed: number, at: number, base: SimResult, crashed: SimResult, maxOrders = MAX_ORDERS): Promise<Verdict> {
  if (JSON.stringify(base.digest) === JSON.stringify(crashed.digest)) return { violations: [], reordered: [], replays: 0 };
  const search = await searchOrders(seed, base, crashed, maxOrders);
  const reordered = changedFamilies(crashed.digest, base.digest).filter((root) => !search.unmatched.includes(root));
  if (search.unmatched.length === 0) return { violations: [], reordered, replays: search.replays };
  const [mine, theirs] = [families(crashed.digest), families(base.digest)];
  const detail = search.unmatched.map((root) => difference(theirs.get(root) ?? [], mine.get(root) ?? [])).join('\n') + (search.broken ? `\n  (a replay not counted: ${search.broken})` : '');
  const violation = {
    invariant: 'crash-equivalence',
    detail: `a crash after write ${at} of ${base.writes} changed the final state of ${search.unmatched.join(', ')}, as no crash-free run of the same stimuli ended (the base run and ${search.replays} in other orders):\n${detail}`,
  };
  return { violations: [violation], reordered, replays: search.replays };
}

export async function crashEquivalence(seed: number, options: CrashOptions = {}): Promise<CrashCheck> {
  const { regression } = options;
  const base = await simulate({ seed, store: 'sqlite', regression });
  const at = options.at ?? new Rng(seed ^ 0x5eed).int(1, Math.max(1, base.writes));
  if (base.violations.length > 0) return { seed, at, base, crashed: undefined, violations: base.violations, reordered: [], replays: 0 };
  const crashed = await simulate({ seed, store: 'sqlite', crashAfterWrites: at, regression, log: options.log });
  if (crashed.violations.length > 0) return { seed, at, base, crashed, violations: crashed.violations, reordered: [], replays: 0 };
  return { seed, at, base, crashed, ...(await judgeCrash(seed, at, base, crashed, options.maxOrders)) };
}
