/** ServerQueries.tokensOfUser: served by the user_id index. */
import { TABLES } from '../columns.ts';
import type { ApiTokenRow } from '../server-rows.ts';
import type { SqlRunner } from './runner.ts';

export function tokensOfUser(db: SqlRunner, userId: string): Promise<ApiTokenRow[]> {
  return db.rows(TABLES.apiTokens, (p) => `SELECT * FROM "api_tokens" WHERE "user_id" = ${p.slot(userId)} ORDER BY "create_time", "id"`);
}
