/** StoreQueries.ownedProcessesIn: served by the (owner, state, timestamp) index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function ownedProcessesIn(db: SqlRunner, owner: string, states: readonly string[], max: number): Promise<ProcRow[]> {
  return db.rows(
    TABLES.procs,
    (p) => `SELECT * FROM "procs" WHERE "owner" = ${p.slot(owner)} AND "state" IN ${p.list(states)} ORDER BY "timestamp", "seq", "id" ${limit(max)}`,
  );
}
