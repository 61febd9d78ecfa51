/**
 * acts-studio as a subject of `npm run bench:peers`: the engine in this process on the memory
 * store, a fresh SQLite file or a fresh PostgreSQL database (migrated templates of the test
 * helpers). Each workflow is three steps of one `acts.transform.set` act, started under a
 * generated pid with its number as the input `n`. A workflow counts as
 * ended once the store batch of the job that finished it committed (the `committed` event), so
 * latency and wall time include its last write.
 */
import { readFileSync } from 'node:fs';
import { Engine } from '../../server/runtime/engine.ts';
import { openStore, type OpenedStore, type StoreBackend } from '../../server/store/open-store.ts';
import { writeThreadGroupedBatches } from '../../server/store/sqlite-write-thread.ts';
import { createTestDatabase } from '../../test/helpers/databases.ts';
import { countBatches, type BatchCounter } from '../durable/common.ts';
import { PgRunCosts, statementCount } from './pg-costs.ts';
import { Completions, type Subject } from './workload.ts';

/** The workflow (one source with test/row-writes.test.ts, which counts its writes). */
const ACTS_THREE_STEPS = readFileSync(new URL('../../test/fixtures/models/three-set-steps.yml', import.meta.url), 'utf8');

/** Resolves each workflow's end once the batch that finished it is in the store. */
function trackEnds(engine: Engine, completions: Completions): void {
  const pending: Array<{ seq: number; i: number }> = [];
  engine.on('finished', ({ proc }) => {
    if (proc.state !== 'completed') throw new Error(`workflow ${proc.pid} ended ${proc.state}: ${proc.err?.message}`);
    pending.push({ seq: engine.batchSeq(), i: Number(proc.root?.inputs.n) });
  });
  engine.on('committed', ({ seq, ok }) => {
    if (!ok) throw new Error(`store batch ${seq} failed`);
    while (pending.length > 0 && pending[0].seq <= seq) completions.ended(pending.shift()!.i);
  });
}

export async function actsSubject(backend: StoreBackend, completions: Completions): Promise<Subject> {
  const db = await createTestDatabase(backend);
  // setup on its own engine, closed, so its writes stay out of the run's counts (memory: each
  // store opened is a new one, so the run's engine deploys and its counter starts after that)
  if (backend !== 'memory') {
    const setup = await Engine.create({ store: await openStore(db.url), autoTick: false });
    await setup.models.deploy(ACTS_THREE_STEPS);
    await setup.close();
  }

  const pgCosts = backend === 'postgresql' ? new PgRunCosts(new URL(db.url).pathname.slice(1)) : undefined;
  await pgCosts?.begin();
  const store: OpenedStore = await openStore(db.url);
  // memory and SQLite: the store's own transactions (less the batches SQLite's write thread wrote
  // in the commit of another) and the row writes asked of it
  const counter: BatchCounter = countBatches(store);
  const statementsBefore = statementCount();
  const groupedBefore = writeThreadGroupedBatches();
  const engine = await Engine.create({ store, autoTick: false });
  if (backend === 'memory') {
    await engine.models.deploy(ACTS_THREE_STEPS);
    counter.reset();
  }
  trackEnds(engine, completions);
  return {
    async start(i) {
      // a generated pid, as the peers' jobs get theirs; the workflow's number travels as an input
      await engine.procs.start('three', { n: i });
    },
    drain: () => engine.idle(),
    close: () => engine.close(),
    async costs() {
      const commits = counter.batches - (writeThreadGroupedBatches() - groupedBefore);
      const costs = pgCosts ? await pgCosts.end() : { commits, rows: counter.rows, statements: statementCount() - statementsBefore };
      await db.drop();
      return costs;
    },
  };
}
