/**
 * The store contract's node figures of a model (types.ts re-exports it): per node of the model's
 * processes, how many are at it now, how many tasks of it ended in a time range, how many of those
 * in `error`, and the median and 95th percentile of their time spent (`end_time - start_time`).
 * The heatmap of a model's page reads them (server/runtime/insights.ts).
 *
 * Percentiles are nearest-rank on both SQL providers and the memory store: the value at rank
 * ceil(q * n) of the n durations in ascending order (`nearestRank`), so all three agree exactly.
 */

/** The figures of one node (`nid`: the engine's node id, as a task's `node_data.id` carries it). */
export interface NodeStatRow {
  nid: string;
  /** Processes not finished with an open (non-terminal) task of this node. */
  now: number;
  /** Tasks of this node that ended (terminal state) in the range, a loop's every pass counted. */
  passed: number;
  /** Of those, the tasks that ended in `error`. */
  errors: number;
  /** Median time spent by those tasks, ms (null when none passed). */
  p50: number | null;
  /** 95th percentile of it, ms (null when none passed). */
  p95: number | null;
}

/** The node figures of a model's processes. */
export interface NodeStatsQueries {
  /**
   * Per node of model `mid`'s processes (nodes of the model itself: tasks of nodes built at run
   * time are left out): the open ones now, and the tasks ended at or after `from` and at or before
   * `to` (epoch ms). Nodes with neither are left out; in `nid` order.
   */
  modelNodeStats(mid: string, from: number, to: number): Promise<NodeStatRow[]>;
}

/** Percent ranks of the figures: the median and the 95th percentile. */
export const NODE_PERCENTILES = { p50: 50, p95: 95 } as const;

/** The nearest-rank percentile `percent` of `sorted` (ascending): the value at rank ceil(percent/100 · n); null when empty. */
export function nearestRank(sorted: readonly number[], percent: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.floor((sorted.length * percent + 99) / 100) - 1];
}
