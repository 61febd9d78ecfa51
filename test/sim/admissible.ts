/**
 * Which final states a crash may leave (crash equivalence, issue 9): the rule, over digests.
 *
 * A model leaves some orders open: a step's act chain (a subflow call, say) runs beside the
 * step's branches, and when a branch loops back (`next`) and closes the step, whether the call's
 * child had returned by then decides whether the act is `completed` or `skipped`, what runs after
 * it, and which hooks its update fires. Without a crash the engine's lanes settle such a race the
 * same way every time; recovery resumes the children in another order and may settle it the
 * other way. That is not a fault, so the crashed run is not held to the one order the base run
 * happened to take, but to some order the engine takes without a crash:
 *
 *   Every *family* (a root process and the subflow children under it, digest lines `root…` and
 *   `root>…`) must end, line for line, as that family ends in one crash-free run of the same
 *   stimuli — the base run, or a replay of the crashed run's script in another interleaving
 *   (world.ts `order`: other engine ids, so other lanes; code-worker answers in another order).
 *
 * A witness is a real end of the engine, so nothing is accepted because it looks alike: a lost
 * step or act, an act run twice, an extra or missing process, a process left running, other
 * outputs — each is a family no crash-free run ended in, and fails. Families are matched one by
 * one (they share nothing but admission slots), so two independent races each settled the other
 * way (seed 800265: p1's and p2's) need not be found in the same witness; the lines of one family
 * must all come from the same witness. The search is bounded (crash-equivalence.ts): an order it
 * does not find is reported as a failure, never assumed.
 */

/** The root process a digest line belongs to: its name up to the first space or `>`. */
export function rootOf(line: string): string {
  const end = line.search(/[ >]/);
  return end < 0 ? line : line.slice(0, end);
}

/** A digest's lines by family (root name), in digest order. */
export function families(digest: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of digest) {
    const root = rootOf(line);
    const lines = out.get(root) ?? [];
    lines.push(line);
    out.set(root, lines);
  }
  return out;
}

const same = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * The families of `crashed` that no witness ended the same way (a family absent on one side
 * counts as ending with no line), sorted; empty when the crashed run is admissible.
 */
export function unmatchedFamilies(crashed: readonly string[], witnesses: ReadonlyArray<readonly string[]>): string[] {
  const mine = families(crashed);
  const theirs = witnesses.map(families);
  const roots = new Set([...mine.keys(), ...theirs.flatMap((w) => [...w.keys()])]);
  return [...roots].filter((root) => !theirs.some((w) => same(w.get(root), mine.get(root)))).sort();
}

/** The families of `crashed` that ended otherwise than in `base` (reordered or wrong), sorted. */
export function changedFamilies(crashed: readonly string[], base: readonly string[]): string[] {
  return unmatchedFamilies(crashed, [base]);
}
