/**
 * Which siblings moved when a list was reordered: of the children two versions share in one list,
 * those outside the longest run that kept its relative order. Both lists hold the same keys, so
 * the longest common subsequence is the longest increasing run of old positions (O(n log n), which
 * keeps a 2,500-step list cheap).
 */

/** Keys of `after` outside the longest run that kept the order of `before` (both hold the same keys). */
export function reorderedKeys(before: readonly string[], after: readonly string[]): string[] {
  const oldIndex = new Map(before.map((key, i) => [key, i]));
  const positions = after.map((key) => oldIndex.get(key) ?? -1);
  // tails[l]: index in `after` of the smallest tail of an increasing run of length l + 1
  const tails: number[] = [];
  const previous = new Array<number>(after.length).fill(-1);
  positions.forEach((position, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (positions[tails[mid]] < position) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1];
    tails[lo] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) kept.add(i);
  return after.filter((_, i) => !kept.has(i));
}
