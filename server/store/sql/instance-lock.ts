/**
 * The statements of the PostgreSQL instance lock (pg-instance-lock.ts, Store.instanceLockHeld): a
 * session-level advisory lock per engine instance, keyed by a 64-bit hash of the instance id, and
 * the question whether any session of this database holds it (`pg_locks`, read only — a
 * `pg_try_advisory_lock` probe would itself hold the lock for a moment, and two probes at once
 * would each see the other).
 */
import crypto from 'node:crypto';

/** The advisory lock key of an instance id: the first 8 bytes of its sha256, as a signed bigint. */
export function instanceLockKey(instance: string): bigint {
  return crypto.createHash('sha256').update(`acts-instance:${instance}`).digest().readBigInt64BE(0);
}

/** Takes the lock on the session that runs it, unless another session holds it (`ok`). */
export const TRY_LOCK_SQL = 'SELECT pg_try_advisory_lock($1::bigint) AS "ok"';

/**
 * Whether a session of this database holds the lock (`held`). A one-bigint advisory lock shows in
 * pg_locks as classid = its high 32 bits, objid = its low 32 bits, objsubid = 1.
 */
export function lockHeldSql(instance: string): { sql: string; params: unknown[] } {
  const key = BigInt.asUintN(64, instanceLockKey(instance));
  return {
    sql:
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE "locktype" = 'advisory' AND "granted" AND "objsubid" = 1 ` +
      `AND "classid" = $1::text::oid AND "objid" = $2::text::oid ` +
      `AND "database" = (SELECT "oid" FROM pg_database WHERE "datname" = current_database())) AS "held"`,
    params: [String(key >> 32n), String(key & 0xffffffffn)],
  };
}
