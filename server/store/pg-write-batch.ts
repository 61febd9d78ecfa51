/**
 * A write-only batch on PostgreSQL (issue 12, item 2; Store.writeOnlyBatch) on a connection of
 * the store's own `pg` pool, instead of a Prisma interactive transaction (its machinery costs more
 * than the writes). Reads through Prisma's query API could not see the open transaction, so the
 * batch's store refuses them (WRITE_ONLY).
 *
 * State: unopened → open (connected, BEGIN, fenced when guarded: at the batch's first statement
 * that cannot wait) → committed | rolled back; or unopened → written as one statement. The
 * store writer's batches are upserts and the deletion of inbox rows of tasks that stopped waiting,
 * which the batch's buffer holds until the end: a batch that sent nothing else never opens a
 * transaction — its fence, all its upserts and deletions go as ONE statement in autocommit
 * (upsertBatchFromJsonSql), one round trip instead of BEGIN, the fence, a statement per table
 * and COMMIT. A fence that finds processes owned by another instance writes nothing and
 * the batch resolves with their pids.
 *
 * Written as one statement, the batch goes on the store's pipelined connection (pg-pipeline.ts),
 * behind the batches under way there; a batch that opens a transaction waits until they answered.
 *
 * A batch's writes may also be gathered ahead of it (Store.gatherWrites: its `fn` run against a
 * buffer that refuses every statement, while the batch before it is still being written) and
 * written later as they were gathered (`runGathered`), with their `seq` given then, in order.
 */
import type pg from 'pg';
import { ActError } from '../engine/errors.ts';
import { SEQ } from './columns.ts';
import type { GatheredWrites, WriteGuard } from './contract/types.ts';
import type { DbRecord } from './mapping.ts';
import type { PgPipeline } from './pg-pipeline.ts';
import { nextSeq } from './seq.ts';
import { upsertBatchFromJsonSql } from './statements.ts';
import { lostOf, PG_FENCE_SQL } from './sql/fence-processes.ts';
import { refusingClient } from './refusing-client.ts';
import { recordsJson, UpsertBuffer, type Drained, type ExecuteRaw } from './upsert-buffer.ts';

/** A write-only batch's writes gathered ahead of it (Store.gatherWrites): what its upsert buffer held. */
export class PgGatheredWrites implements GatheredWrites {
  constructor(
    readonly gatheredBy: object,
    readonly drained: Drained,
  ) {}
}

/** The statements of a batch's `fn` while its writes are gathered: none can run ahead of the batch. */
export const refuseAhead = async (sql: string): Promise<never> => {
  throw new ActError('internal', `'${sql.slice(0, 40)}…' cannot run before its write-only batch`);
};

/** Thrown into the batch's work when its fence found processes of another instance: it rolls back. */
class ProcessesLost extends Error {
  constructor(readonly pids: string[]) {
    super(`processes owned by another instance: ${pids.join(', ')}`);
  }
}

/** The PostgreSQL store's own connections for writes: a pool (transactions, statements outside batches) and the pipelined one. */
export interface PgWrites {
  pool: pg.Pool;
  /** The connection a batch written as one statement goes on. */
  pipeline: PgPipeline;
}

export class PgWriteBatch {
  private client: pg.PoolClient | undefined;
  private opening: Promise<pg.PoolClient> | undefined;

  constructor(
    private readonly writes: PgWrites,
    private readonly guard: WriteGuard | undefined,
  ) {}

  /** Runs a statement in the batch's transaction (opened by the first). `name`: a statement prepared once per connection. */
  readonly execute: ExecuteRaw = async (sql, params, name) => {
    const client = await this.transaction();
    return (await client.query(name ? { name, text: sql, values: params } : { text: sql, values: params })).rowCount ?? 0;
  };

  /** Runs a query in the batch's transaction (opened by the first). */
  readonly query = async (sql: string, params: unknown[]): Promise<DbRecord[]> => (await (await this.transaction()).query(sql, params)).rows as DbRecord[];

  /**
   * Runs `work` (which queues its upserts in `buffer`) and ends the batch: commits what it wrote,
   * or rolls back when it rejects (the rejection is passed on). Resolves with the pids the fence
   * found owned by another instance (nothing was written then), or `[]`.
   */
  async run(buffer: UpsertBuffer, work: () => Promise<void>): Promise<string[]> {
    let broken: Error | undefined;
    try {
      await work();
      if (!this.opening) return await this.writeAtOnce(buffer);
      await buffer.flush();
      await (await this.opening).query('COMMIT');
      return [];
    } catch (err) {
      if (this.client) {
        // a connection that cannot even roll back is not handed out again
        await this.client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
      }
      if (err instanceof ProcessesLost) return err.pids;
      throw err;
    } finally {
      this.client?.release(broken);
    }
  }

  /**
   * Writes `gathered` (PgGatheredWrites' buffers, in order) as if their `fn`s had run one after
   * another in this batch; each row's `seq` is given now, so rows keep the order they are written in.
   */
  runGathered(gathered: readonly Drained[]): Promise<string[]> {
    const buffer = new UpsertBuffer('postgresql', this.execute);
    for (const { upserts, deletions } of gathered) {
      for (const { table, records } of upserts) {
        for (const record of records) {
          record[SEQ] = nextSeq();
          buffer.add(table, record);
        }
      }
      for (const { table, pairs } of deletions) buffer.deletePairs(table, pairs);
    }
    // nothing to run first: the statement is sent now, behind the batches handed over before
    return this.writeAtOnce(buffer);
  }

  private transaction(): Promise<pg.PoolClient> {
    this.opening ??= (async () => {
      // a transaction on a connection of the pool commits after the batches under way on the pipeline
      await this.writes.pipeline.drained();
      const client = await this.writes.pool.connect();
      this.client = client;
      await client.query('BEGIN');
      if (this.guard) {
        const lost = lostOf((await client.query(PG_FENCE_SQL, [[...this.guard.pids]])).rows as DbRecord[], this.guard.owner, this.guard.fresh);
        if (lost.length > 0) throw new ProcessesLost(lost);
      }
      return client;
    })();
    return this.opening;
  }

  /** Every queued upsert and deletion (and the fence) in one statement, without a transaction around it. */
  private async writeAtOnce(buffer: UpsertBuffer): Promise<string[]> {
    const { upserts, deletions } = buffer.drain();
    if (upserts.length === 0 && deletions.length === 0) return [];
    const tables = upserts.map((entry) => entry.table);
    const params: unknown[] = this.guard ? [[...this.guard.pids], this.guard.owner, [...(this.guard.fresh ?? [])]] : [];
    for (const entry of upserts) params.push(recordsJson(entry.records));
    for (const { table, pairs } of deletions) {
      params.push(JSON.stringify(pairs.map(({ pid, tid }) => ({ pid, tid }))));
      params.push(upserts.find((entry) => entry.table === table)?.records.map((record) => record.id) ?? []);
    }
    const deleted = deletions.map((entry) => entry.table);
    const rows = await this.writes.pipeline.run(upsertBatchFromJsonSql(tables, this.guard !== undefined, deleted), params);
    return rows.map((row) => String(row.id));
  }
}

/** The Prisma side of a PostgreSQL write-only batch's store: reads and deleteWhere refuse. */
export const WRITE_ONLY: object = refusingClient((what) => {
  throw new ActError('internal', `a write-only batch cannot ${what}: use Store.batch for work that reads`);
});
