/**
 * The floor of `npm run bench:peers`: what PostgreSQL itself allows for the same durable record
 * of a workflow — its row written, one row per step, its row marked completed (five row writes) —
 * written with plain `pg` by the same producers:
 * - `commit per write`: each write its own statement and commit (a pool of one connection per producer);
 * - `set-based`: the starts are gathered `SET_BATCH` at a time and each batch is written in one
 *   transaction of three statements (`INSERT … SELECT FROM unnest(…)`, the same for the steps, one
 *   `UPDATE … FROM unnest`), up to one batch per connection at once. A start here is not
 *   acknowledged on its own (the producers do not wait): this is the floor of the writes alone.
 * A workflow ends when the commit of its last write returned.
 */
import pg from 'pg';
import { freshPgDatabase, PgRunCosts } from './pg-costs.ts';
import { Completions, PRODUCERS, type Subject } from './workload.ts';

const SET_BATCH = Number(process.env.BENCH_RAW_BATCH ?? 100);

const SCHEMA = `
CREATE TABLE workflow (id int PRIMARY KEY, state text NOT NULL, updated timestamptz NOT NULL DEFAULT now());
CREATE TABLE step (workflow int NOT NULL, step int NOT NULL, state text NOT NULL, PRIMARY KEY (workflow, step));
`;

async function rawDatabase(label: string) {
  const db = await freshPgDatabase(label);
  const setup = new pg.Client({ connectionString: db.url });
  await setup.connect();
  await setup.query(SCHEMA);
  await setup.end();
  const costs = new PgRunCosts(db.name);
  await costs.begin();
  const pool = new pg.Pool({ connectionString: db.url, max: PRODUCERS });
  return {
    pool,
    drain: async () => undefined,
    close: () => pool.end(),
    async costs() {
      const run = await costs.end();
      await db.drop();
      return run;
    },
  };
}

export async function commitPerWriteSubject(completions: Completions): Promise<Subject> {
  const { pool, ...rest } = await rawDatabase('commit');
  return {
    async start(i) {
      await pool.query("INSERT INTO workflow (id, state) VALUES ($1, 'running')", [i]);
      for (let step = 1; step <= 3; step++) await pool.query("INSERT INTO step (workflow, step, state) VALUES ($1, $2, 'completed')", [i, step]);
      await pool.query("UPDATE workflow SET state = 'completed', updated = now() WHERE id = $1", [i]);
      completions.ended(i);
    },
    ...rest,
  };
}

export async function setBasedSubject(completions: Completions): Promise<Subject> {
  const { pool, ...rest } = await rawDatabase('set');
  /** Workflows gathered for the next batch; it is written when full, or 5 ms after the producers stopped adding. */
  let gathered: number[] = [];
  const flush = async (ids: number[]) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("INSERT INTO workflow (id, state) SELECT id, 'running' FROM unnest($1::int[]) AS id", [ids]);
      const stepIds = ids.flatMap((id) => [id, id, id]);
      const steps = ids.flatMap(() => [1, 2, 3]);
      await client.query("INSERT INTO step (workflow, step, state) SELECT w, s, 'completed' FROM unnest($1::int[], $2::int[]) AS t (w, s)", [stepIds, steps]);
      await client.query("UPDATE workflow SET state = 'completed', updated = now() FROM unnest($1::int[]) AS t (id) WHERE workflow.id = t.id", [ids]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    for (const id of ids) completions.ended(id);
  };
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const ids = gathered;
    gathered = [];
    return flush(ids);
  };
  const writing = new Set<Promise<void>>();
  const write = () => {
    const batch = cut();
    writing.add(batch);
    void batch.finally(() => writing.delete(batch));
  };
  return {
    async start(i) {
      gathered.push(i);
      if (gathered.length >= SET_BATCH) write();
      else timer ??= setTimeout(write, 5);
      // let the other producers add theirs before the next start
      await new Promise((resolve) => setImmediate(resolve));
    },
    ...rest,
  };
}
