/**
 * StoreQueries.modelNodeStats (the heatmap of a model's page; contract/node-stats.ts): two
 * statements over the model's processes (the `mid` index) joined to their tasks (the `pid` index),
 * grouped by the node id inside the task's `node_data` JSON —
 * - at the node now: distinct unfinished processes with an open task of it;
 * - passed in the range: tasks ended at or after `from` and at or before `to`, their `error` count,
 *   and the nearest-rank median and 95th percentile of `end_time - start_time`, ranked by a window
 *   function (`ROW_NUMBER` over the node's durations: the same integer arithmetic on SQLite and
 *   PostgreSQL, so both give the memory store's answer). Only processes that overlap the range are
 *   joined: started by `to`, and unfinished or ended at or after `from`. The join is materialised
 *   before the state filter: with that filter inside it, PostgreSQL on stale statistics (right
 *   after a bulk load) looked each process's tasks up through the (state, …) index, reading every
 *   ended task once per process (a minute on 10,000 runs instead of a fifth of a second).
 * Cost on 10,000 runs of one model: bench/node-stats.ts (figures in docs/server.md, "Heatmaps").
 */
import { TERMINAL_STATES } from '../../../vocab/states.ts';
import { TABLES } from '../columns.ts';
import { NODE_PERCENTILES, type NodeStatRow } from '../contract/node-stats.ts';
import type { SqlBackend } from '../sql-backend.ts';
import type { Params } from './params.ts';
import type { SqlRunner } from './runner.ts';

/** A JSON field of a task's `node_data` as text (NULL when missing or JSON null). */
function nodeField(backend: SqlBackend, field: 'id' | 'origin'): string {
  return backend === 'postgresql' ? `(t."node_data"::json ->> '${field}')` : `json_extract(t."node_data", '$.${field}')`;
}

/** The task's node id, and the condition that it is a node of the model (not one built at run time). */
function modelNode(p: Params): { nid: string; own: string } {
  return { nid: nodeField(p.backend, 'id'), own: `${nodeField(p.backend, 'origin')} IS NULL` };
}

/** The nearest-rank percentile `percent` of the window's durations (rank ceil(percent/100 · n)). */
const rankAt = (percent: number): string => `MAX(CASE WHEN "k" = ("n" * ${percent} + 99) / 100 THEN "ms" END)`;

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export async function modelNodeStats(db: SqlRunner, mid: string, from: number, to: number): Promise<NodeStatRow[]> {
  const open = await db.records(TABLES.tasks, (p) => {
    const { nid, own } = modelNode(p);
    return (
      `SELECT ${nid} AS "nid", COUNT(DISTINCT t."pid") AS "n" FROM "procs" p JOIN "tasks" t ON t."pid" = p."id" ` +
      `WHERE p."mid" = ${p.slot(mid)} AND p."state" NOT IN ${p.list(TERMINAL_STATES)} AND t."state" NOT IN ${p.list(TERMINAL_STATES)} AND ${own} GROUP BY 1`
    );
  });
  const ended = await db.records(TABLES.tasks, (p) => {
    const { nid, own } = modelNode(p);
    return (
      `WITH "d" AS MATERIALIZED (SELECT ${nid} AS "nid", t."state" AS "state", t."end_time" - t."start_time" AS "ms" ` +
      `FROM "procs" p JOIN "tasks" t ON t."pid" = p."id" ` +
      `WHERE p."mid" = ${p.slot(mid)} AND p."start_time" <= ${p.floorMs(to)} AND (p."end_time" = 0 OR p."end_time" >= ${p.ceilMs(from)}) ` +
      `AND t."end_time" >= ${p.ceilMs(from)} AND t."end_time" <= ${p.floorMs(to)} AND ${own}), ` +
      `"r" AS (SELECT "nid", "state", "ms", ROW_NUMBER() OVER (PARTITION BY "nid" ORDER BY "ms") AS "k", COUNT(*) OVER (PARTITION BY "nid") AS "n" FROM "d" WHERE "state" IN ${p.list(TERMINAL_STATES)}) ` +
      `SELECT "nid", MAX("n") AS "n", SUM(CASE WHEN "state" = 'error' THEN 1 ELSE 0 END) AS "errors", ` +
      `${rankAt(NODE_PERCENTILES.p50)} AS "p50", ${rankAt(NODE_PERCENTILES.p95)} AS "p95" FROM "r" GROUP BY "nid"`
    );
  });
  const rows = new Map<string, NodeStatRow>();
  const row = (nid: string) => rows.get(nid) ?? rows.set(nid, { nid, now: 0, passed: 0, errors: 0, p50: null, p95: null }).get(nid)!;
  for (const r of open) if (typeof r.nid === 'string') row(r.nid).now = num(r.n);
  for (const r of ended) {
    if (typeof r.nid !== 'string') continue;
    Object.assign(row(r.nid), { passed: num(r.n), errors: num(r.errors), p50: numOrNull(r.p50), p95: numOrNull(r.p95) });
  }
  return [...rows.values()].sort((a, b) => (a.nid < b.nid ? -1 : a.nid > b.nid ? 1 : 0));
}
