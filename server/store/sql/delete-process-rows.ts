/**
 * StoreQueries.deleteProcessRows (the sweeper, inside its batch): the process's rows of every
 * table by their pid indexes, dependants first, then the procs row.
 */
import { TABLES, type Table } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

const DEPENDANTS: readonly Table[] = [TABLES.deliveries, TABLES.messages, TABLES.inbox, TABLES.tasks, TABLES.ops, TABLES.states, TABLES.files];

export async function deleteProcessRows(db: SqlRunner, pid: string): Promise<void> {
  for (const table of DEPENDANTS) await db.execute(table, (p) => `DELETE FROM "${table.sqlName}" WHERE "pid" = ${p.slot(pid)}`);
  await db.execute(TABLES.procs, (p) => `DELETE FROM "procs" WHERE "id" = ${p.slot(pid)}`);
}
