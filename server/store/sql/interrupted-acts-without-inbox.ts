/**
 * StoreQueries.interruptedActsWithoutInbox (the inbox's backfill): the partial (kind, start_time,
 * seq) index of interrupted tasks in order (its WHERE, `state = 'interrupted'`, is this query's
 * own term), each task's inbox rows looked up by their (pid, tid) index.
 */
import type { TaskRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit, offset } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function interruptedActsWithoutInbox(db: SqlRunner, skip: number, max: number): Promise<TaskRow[]> {
  return db.rows(
    TABLES.tasks,
    () =>
      `SELECT * FROM "tasks" t WHERE t."state" = 'interrupted' AND t."kind" = 'act' ` +
      `AND NOT EXISTS (SELECT 1 FROM "inbox" i WHERE i."pid" = t."pid" AND i."tid" = t."tid") ` +
      `ORDER BY t."start_time", t."seq", t."id" ${limit(max)}${offset(skip)}`,
  );
}
