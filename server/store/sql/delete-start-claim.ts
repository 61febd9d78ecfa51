/** StoreQueries.deleteStartClaim (start-keys.ts): by key, only while the claim is still the one read. */
import type { StartClaimRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export async function deleteStartClaim(db: SqlRunner, claim: StartClaimRow): Promise<boolean> {
  const deleted = await db.execute(
    TABLES.startClaims,
    (p) => `DELETE FROM "start_claims" WHERE "id" = ${p.slot(claim.id)} AND "instance" = ${p.slot(claim.instance)} AND "claimed" = ${p.slot(BigInt(claim.claimed))}`,
  );
  return deleted > 0;
}
