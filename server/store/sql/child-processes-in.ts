/** StoreQueries.childProcessesIn: served by the parent_pid index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function childProcessesIn(db: SqlRunner, parentPids: readonly string[], states: readonly string[]): Promise<ProcRow[]> {
  return db.rows(
    TABLES.procs,
    (p) => `SELECT * FROM "procs" WHERE "parent_pid" IN ${p.list(parentPids)} AND "state" IN ${p.list(states)} ORDER BY "seq", "id"`,
  );
}
