/** ServerQueries.insertAuditEntries (the audit log's group of entries): one multi-row INSERT. */
import { TABLES } from '../columns.ts';
import { toRecord, type DbRecord } from '../mapping.ts';
import { nextSeq } from '../seq.ts';
import type { AuditRow } from '../server-rows.ts';
import { insertColumns } from '../statements.ts';
import type { SqlRunner } from './runner.ts';

export async function insertAuditEntries(db: SqlRunner, rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const table = TABLES.audit;
  const columns = insertColumns(table);
  await db.execute(table, (p) => {
    const tuples = rows.map((row) => {
      const record: DbRecord = { ...toRecord(table, row), seq: nextSeq() };
      return `(${columns.map((column) => p.slot(record[column] ?? null)).join(', ')})`;
    });
    return `INSERT INTO "audit_entries" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT ("id") DO NOTHING`;
  });
}
