/** ServerQueries.userNamed (sign-in, user creation): served by the unique name index. */
import { TABLES } from '../columns.ts';
import type { UserRow } from '../server-rows.ts';
import type { SqlRunner } from './runner.ts';

export function userNamed(db: SqlRunner, name: string): Promise<UserRow | undefined> {
  return db.first(TABLES.users, (p) => `SELECT * FROM "users" WHERE "name" = ${p.slot(name)} ORDER BY "seq", "id" LIMIT 1`);
}
