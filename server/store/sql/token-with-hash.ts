/** ServerQueries.tokenWithHash (every API call with a token): served by the unique token_hash index. */
import { TABLES } from '../columns.ts';
import type { ApiTokenRow } from '../server-rows.ts';
import type { SqlRunner } from './runner.ts';

export function tokenWithHash(db: SqlRunner, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return db.first(TABLES.apiTokens, (p) => `SELECT * FROM "api_tokens" WHERE "token_hash" = ${p.slot(tokenHash)} ORDER BY "seq", "id" LIMIT 1`);
}
