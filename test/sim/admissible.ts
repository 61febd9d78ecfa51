/**
 * Which final states a crash may leave (crash equivalence, issue 9): the rule, over digests.
 *
 * A model leaves some orders open: a step's act chain (a subflow call, say) runs beside the
 * step's branches, and when a branch loops back (`next`) and closes the step, whether the call's
 * child had returned by then decides whether the act is `completed` or `skipped`, what runs after
 * it, and which hooks its update fires. Without a crash the engine's lanes settle such a race the
 * same way every time; recovery resumes the children in another order and may settle it the
 * other way. That is not a fault, so the crashed run is not held to the one order the base run
 * happened to take, but to an order the engine takes without a crash. The rule, per *family* (a
 * root process and the subflow children under it: digest lines `root …` and `root>…`):
 *
 *   A family must end, line for line, as in the base run; or, if it ran subflow children (in
 *   either run's record, cut off or not: several processes, each on its own lane, so their jobs
 *   race; world.ts `racedFamilies`), as it ends in one crash-free run of the crashed run's
 *   stimuli in another interleaving (world.ts `order`: other engine ids, so other lanes;
 *   code-worker answers in another order).
 *
 * Before any of this, the crashed run must hold every invariant (an act completed twice, a
 * message sent twice, a process stuck or unfinished fail there). A witness is a real end of the
 * engine without a crash, with every invariant holding in it, not a look-alike: a lost step or
 * act, an act run twice, an extra or missing process, a process left running, other outputs are
 * ends no crash-free run reaches, and fail — and a family of one process (one lane, one order)
 * must match the base run exactly, as before. Families are matched one by one (they share nothing but admission slots), so two
 * independent races each settled the other way (seed 800265: p1's and p2's) need not be found in
 * the same witness; the lines of one family all come from the same run. The search for witnesses
 * is bounded (crash-equivalence.ts): an order it does not find is a failure, never assumed.
 * What the rule trusts: the crash-free engine. An order-dependent fault that also shows without a
 * crash, in a family with subflow children, is accepted here; the invariants must catch it.
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

/** Every root in these digests. */
function rootsOf(digests: ReadonlyArray<Map<string, string[]>>): string[] {
  return [...new Set(digests.flatMap((d) => [...d.keys()]))].sort();
}

/** The families of `crashed` that ended otherwise than in `base` (a family absent on one side ends with no line), sorted. */
export function changedFamilies(crashed: readonly string[], base: readonly string[]): string[] {
  const [mine, theirs] = [families(crashed), families(base)];
  return rootsOf([mine, theirs]).filter((root) => !same(mine.get(root), theirs.get(root)));
}

/**
 * The families of `crashed` the rule does not admit, sorted (empty: the crashed run is
 * admissible): changed from `base`, and either not `raced` or ended so in none of `others`
 * (crash-free runs in other orders).
 */
export function inadmissibleFamilies(crashed: readonly string[], base: readonly string[], others: ReadonlyArray<readonly string[]>, raced: ReadonlySet<string>): string[] {
  const mine = families(crashed);
  const witnesses = others.map(families);
  return changedFamilies(crashed, base).filter((root) => !raced.has(root) || !witnesses.some((w) => same(w.get(root), mine.get(root))));
}
