/** StoreQueries.tasksOf (recovery loads processes): served by the pid index. */
import type { TaskRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function tasksOf(db: SqlRunner, pids: readonly string[]): Promise<TaskRow[]> {
  return db.rows(TABLES.tasks, (p) => `SELECT * FROM "tasks" WHERE "pid" IN ${p.list(pids)} ORDER BY "seq", "id"`);
}
