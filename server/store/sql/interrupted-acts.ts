/** StoreQueries.interruptedActs (the inbox): served by the (state, kind, start_time, seq) index. */
import type { TaskRow } from '../../engine/store/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function interruptedActs(db: SqlRunner, max: number): Promise<TaskRow[]> {
  return db.rows(
    TABLES.tasks,
    () => `SELECT * FROM "tasks" WHERE "state" = 'interrupted' AND "kind" = 'act' ORDER BY "start_time", "seq", "id" ${limit(max)}`,
  );
}
