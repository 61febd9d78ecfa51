/** StoreQueries.processesEndedBy (the sweeper): the states through the (state, timestamp) index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function processesEndedBy(db: SqlRunner, states: readonly string[], endedBy: number, max: number): Promise<ProcRow[]> {
  return db.rows(
    TABLES.procs,
    (p) => `SELECT * FROM "procs" WHERE "state" IN ${p.list(states)} AND "end_time" <= ${p.floorMs(endedBy)} ORDER BY "end_time", "seq", "id" ${limit(max)}`,
  );
}
