/**
 * StoreQueries.claimStartKey (start-keys.ts): one INSERT … ON CONFLICT DO NOTHING on the key (the
 * primary key), so of concurrent claims on any number of instances exactly one inserts; a
 * conflict is no error, so it cannot abort a surrounding PostgreSQL transaction.
 */
import type { StartClaimRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { nextSeq } from '../seq.ts';
import type { SqlRunner } from './runner.ts';

export async function claimStartKey(db: SqlRunner, claim: StartClaimRow): Promise<boolean> {
  const inserted = await db.execute(
    TABLES.startClaims,
    (p) =>
      `INSERT INTO "start_claims" ("id", "pid", "digest", "instance", "claimed", "seq") ` +
      `VALUES (${p.slot(claim.id)}, ${p.slot(claim.pid)}, ${p.slot(claim.digest)}, ${p.slot(claim.instance)}, ${p.slot(BigInt(claim.claimed))}, ${p.slot(nextSeq())}) ` +
      `ON CONFLICT ("id") DO NOTHING`,
  );
  return inserted === 1;
}
