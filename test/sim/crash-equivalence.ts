/**
 * Crash equivalence (issue 9): a seed run on SQLite, then the same seed with the store dying after
 * a random number of its writes (a job boundary: a commit) and a new engine recovering on the same
 * file, must reach the same final state — every process's state, error code, outputs and the
 * states of its tasks by place — with every invariant holding in both runs.
 */
import type { Violation } from './invariants.ts';
import type { Regression } from './regression.ts';
import { Rng } from './rng.ts';
import { simulate, type SimResult } from './world.ts';

export interface CrashCheck {
  seed: number;
  /** The crash point: after this many writes of the run. */
  at: number;
  base: SimResult;
  crashed: SimResult | undefined;
  violations: Violation[];
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
}

export async function crashEquivalence(seed: number, options: CrashOptions = {}): Promise<CrashCheck> {
  const { regression } = options;
  const base = await simulate({ seed, store: 'sqlite', regression });
  const at = options.at ?? new Rng(seed ^ 0x5eed).int(1, Math.max(1, base.writes));
  if (base.violations.length > 0) return { seed, at, base, crashed: undefined, violations: base.violations };
  const crashed = await simulate({ seed, store: 'sqlite', crashAfterWrites: at, regression, log: options.log });
  const violations = [...crashed.violations];
  if (violations.length === 0 && JSON.stringify(base.digest) !== JSON.stringify(crashed.digest)) {
    violations.push({ invariant: 'crash-equivalence', detail: `a crash after write ${at} of ${base.writes} changed the final state:\n${difference(base.digest, crashed.digest)}` });
  }
  return { seed, at, base, crashed, violations };
}
