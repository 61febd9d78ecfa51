/**
 * `modelNodeStats` (node-stats.ts) in the query language, over the memory store's collections:
 * the model's processes by their `mid` index, each one's tasks by the `pid` index, the figures
 * added up here. The SQL stores answer it with sql/model-node-stats.ts; test/node-stats.test.ts
 * holds the three to one answer.
 */
import { TERMINAL_STATES } from '../../../vocab/states.ts';
import { and, eq, rowsOf } from './filters.ts';
import { NODE_PERCENTILES, nearestRank, type NodeStatRow, type NodeStatsQueries } from './node-stats.ts';
import type { Store } from './types.ts';

const TERMINAL = new Set<string>(TERMINAL_STATES);

/** The engine node id of a task of a model's own node; undefined for a node built at run time. */
function modelNodeId(nodeData: unknown): string | undefined {
  const ref = nodeData as { origin?: unknown; id?: unknown } | null;
  return ref && (ref.origin === null || ref.origin === undefined) && typeof ref.id === 'string' ? ref.id : undefined;
}

export function memoryNodeStats({ procs, tasks }: Pick<Store, 'procs' | 'tasks'>): NodeStatsQueries['modelNodeStats'] {
  return async (mid, from, to) => {
    const open = new Map<string, Set<string>>();
    const ended = new Map<string, { errors: number; durations: number[] }>();
    for (const proc of await rowsOf(procs, and(eq('mid', mid)))) {
      const unfinished = !TERMINAL.has(proc.state);
      // a task ended in the range belongs to a process started by its end and not ended before its start
      const overlaps = proc.start_time <= to && (proc.end_time === 0 || proc.end_time >= from);
      if (!unfinished && !overlaps) continue;
      for (const task of await rowsOf(tasks, and(eq('pid', proc.id)))) {
        const nid = modelNodeId(task.node_data);
        if (nid === undefined) continue;
        if (!TERMINAL.has(task.state)) {
          if (unfinished) (open.get(nid) ?? open.set(nid, new Set()).get(nid)!).add(proc.id);
        } else if (overlaps && task.end_time >= from && task.end_time <= to) {
          const node = ended.get(nid) ?? ended.set(nid, { errors: 0, durations: [] }).get(nid)!;
          if (task.state === 'error') node.errors++;
          node.durations.push(task.end_time - task.start_time);
        }
      }
    }
    const rows: NodeStatRow[] = [];
    for (const nid of [...new Set([...open.keys(), ...ended.keys()])].sort()) {
      const durations = (ended.get(nid)?.durations ?? []).sort((a, b) => a - b);
      rows.push({
        nid,
        now: open.get(nid)?.size ?? 0,
        passed: durations.length,
        errors: ended.get(nid)?.errors ?? 0,
        p50: nearestRank(durations, NODE_PERCENTILES.p50),
        p95: nearestRank(durations, NODE_PERCENTILES.p95),
      });
    }
    return rows;
  };
}
