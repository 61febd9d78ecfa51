/**
 * Migrating running processes to another version of their model (issue 16; engine/migrate.ts):
 * - `running`: how many processes of each version of a model have not ended (the deploy dialog's
 *   guard rail, the versions dialog);
 * - `plan`: the nodes of both versions and the proposed mapping (same id and kind; else the node in
 *   its place by the structural diff; else a node of the same kind and name — for an act without a
 *   name, of the same package under its parent's target —, as a suggestion);
 * - `check`: validates a plan against the processes it would move (every unfinished one of the
 *   source version, or the given ones) before anything moves: which can, which cannot and why;
 * - `start`: migrates them in the background (a bulk job: `bulk.status` polls its progress and
 *   per-run results), each run whole or not at all, each audited on the run (`proc.migrate`);
 * - `one`: migrates one process now.
 */
import { z } from 'zod';
import { recordAudit } from '../audit.ts';
import { bulkJobsOf } from '../bulk/jobs.ts';
import { migrateOperation, migrateRun } from '../bulk/migrate-operation.ts';
import { toActError } from '../errors.ts';
import { id } from '../limits.ts';
import { allowed, router } from '../trpc.ts';
import type { ApiServices } from '../context.ts';
import { ActError } from '../../engine/errors.ts';
import type { MigrationNode } from '../../runtime/migrations-api.ts';
import { MAX_BULK_RUNS } from '../../../vocab/bulk-actions.ts';
import { diffModels } from '../../../vocab/model-diff/index.ts';
import { snapshotNodeIds } from '../model-node-ids.ts';
import { isSkipProblem, REMOVED_POLICIES, type MigrationPlan, type MigrationProblem } from '../../../vocab/migration.ts';

const version = z.number().int().min(1).max(1_000_000);
const nodeId = z.string().min(1).max(200);
/** A plan as the API takes it: the target version, renamed nodes, what happens at removed ones. */
const planFields = {
  mid: id,
  from: version,
  to: version,
  map: z.record(nodeId, nodeId).default({}),
  removed: z.record(nodeId, z.enum(REMOVED_POLICIES)).default({}),
  /** The processes to move (default: every unfinished one of version `from`). */
  pids: z.array(id).min(1).max(MAX_BULK_RUNS).optional(),
};
const planInput = z.object(planFields).strict();
type PlanInput = z.infer<typeof planInput>;

const planOf = (input: Pick<PlanInput, 'to' | 'map' | 'removed'>): MigrationPlan => ({ ver: input.to, map: input.map, removed: input.removed });

/** The processes a plan moves: the given ones, or every unfinished one of the source version (at most MAX_BULK_RUNS). */
async function selected(services: ApiServices, input: PlanInput): Promise<string[]> {
  if (input.pids) return [...new Set(input.pids)];
  const { pids, count } = await services.engine.migrations.candidates(input.mid, input.from, MAX_BULK_RUNS);
  if (count > MAX_BULK_RUNS) {
    throw new ActError('bulk.too_many', `version ${input.from} of '${input.mid}' has ${count} running processes, more than the ${MAX_BULK_RUNS} one migration takes; pick the processes to move`, {
      count,
      max: MAX_BULK_RUNS,
    });
  }
  return pids;
}

/**
 * Each source node with its proposed target, each target proposed once: the node of the same id
 * and kind (`same`); else the node in its place (`place`: the structural diff matched them — an
 * element without a YAML id gets a new generated id in every version); else, as a suggestion, a
 * target node no source node has of the same kind and name, or — for an act without a name — of
 * the same package under the target of its parent, in order (`suggested`); else none. Source
 * nodes come parents first.
 */
function proposedMapping(source: MigrationNode[], target: MigrationNode[], inPlace: Map<string, string>) {
  const byId = new Map(target.map((n) => [n.id, n]));
  const sourceIds = new Set(source.map((n) => n.id));
  const unmatched = target.filter((n) => !sourceIds.has(n.id));
  const taken = new Set<string>();
  const targetOf = new Map<string, string>();
  const samePlace = (n: MigrationNode, t: MigrationNode) => n.kind === 'act' && t.uses === n.uses && t.parent === (n.parent === '' ? '' : targetOf.get(n.parent));
  const suggestion = (n: MigrationNode) => unmatched.find((t) => !taken.has(t.id) && t.kind === n.kind && (n.name ? t.name === n.name : samePlace(n, t)))?.id;
  const placed = (n: MigrationNode) => {
    const there = byId.get(inPlace.get(n.id) ?? '');
    return there && there.kind === n.kind && !taken.has(there.id) ? there.id : undefined;
  };
  const propose = (n: MigrationNode): { target: string; how: 'same' | 'place' | 'suggested' } | undefined => {
    const same = byId.get(n.id);
    if (same && same.kind === n.kind) return { target: n.id, how: 'same' };
    const there = placed(n);
    if (there) return { target: there, how: 'place' };
    const suggested = suggestion(n);
    return suggested ? { target: suggested, how: 'suggested' } : undefined;
  };
  return source.map((n) => {
    const found = propose(n);
    if (!found) return { ...n, target: null, how: 'none' as const };
    taken.add(found.target);
    targetOf.set(n.id, found.target);
    return { ...n, ...found };
  });
}

/** Engine node ids of `from` → of `to` for the elements the structural diff finds in both (by graph node id). */
async function nodesInPlace(services: ApiServices, mid: string, from: number, to: number): Promise<Map<string, string>> {
  const { engine } = services;
  const [a, b] = await Promise.all([engine.models.version(mid, from), engine.models.version(mid, to)]);
  const nids = (row: typeof a) => snapshotNodeIds(engine, { mid: row.mid, model_ver: row.ver, model: row.data });
  const diff = diffModels(a.data, b.data, { nids: { before: nids(a), after: nids(b) } });
  const pairs = new Map<string, string>();
  for (const change of diff.changes) {
    if (change.status === 'added' || change.status === 'removed' || !change.nid) continue;
    pairs.set(change.beforeNid ?? change.nid, change.nid);
  }
  return pairs;
}

export const migrationsRouter = router({
  /** Unfinished processes of each version of a model (versions with none left out). */
  running: allowed('read')
    .input(z.object({ mid: id }))
    .query(async ({ ctx, input }) => ({ mid: input.mid, versions: await ctx.services.engine.migrations.running(input.mid) })),

  /** Both versions' nodes and the proposed mapping of every source node, with how many processes run the source version. */
  plan: allowed('read')
    .input(z.object({ mid: id, from: version, to: version }))
    .query(async ({ ctx, input }) => {
      const { migrations } = ctx.services.engine;
      const [source, target, running, inPlace] = await Promise.all([
        migrations.nodes(input.mid, input.from),
        migrations.nodes(input.mid, input.to),
        migrations.running(input.mid),
        nodesInPlace(ctx.services, input.mid, input.from, input.to),
      ]);
      return { ...input, nodes: proposedMapping(source, target, inPlace), targets: target, running: running.find((v) => v.ver === input.from)?.running ?? 0 };
    }),

  /** Validates the plan against each process it would move; nothing moves. `readyPids`: those that can (a `start` with them moves exactly these). */
  check: allowed('design')
    .input(planInput)
    .mutation(async ({ ctx, input }) => {
      const started = performance.now();
      const pids = await selected(ctx.services, input);
      const plan = planOf(input);
      const blocked: Array<{ pid: string; problems: MigrationProblem[] }> = [];
      const readyPids: string[] = [];
      let skipped = 0;
      for (const pid of pids) {
        const problems = await ctx.services.engine.migrations.problems(pid, plan).catch((err: unknown) => [{ code: 'busy' as const, tid: null, nid: null, message: toActError(err).message }]);
        if (problems.length === 0) readyPids.push(pid);
        else if (problems.every((p) => isSkipProblem(p.code))) skipped++;
        else blocked.push({ pid, problems });
      }
      return { total: pids.length, ready: readyPids.length, readyPids, skipped, blocked, ms: Math.round(performance.now() - started) };
    }),

  /** Migrates the processes in the background; `bulk.status` polls the job. */
  start: allowed('design')
    .input(planInput)
    .mutation(async ({ ctx, input }) => {
      try {
        const pids = await selected(ctx.services, input);
        const job = bulkJobsOf(ctx.services).start(ctx.services, ctx.caller, 'migrate', { pids }, pids, migrateOperation(input.mid, planOf(input)));
        return { job: job.id, action: 'migrate' as const, total: job.total };
      } catch (err) {
        await recordAudit(ctx.services, ctx.caller, { action: 'proc.bulk_migrate', target: input.mid, detail: { from: input.from, to: input.to } }, toActError(err).code);
        throw err;
      }
    }),

  /** Migrates one process now; answers its versions before and after. */
  one: allowed('design')
    .input(z.object({ pid: id, to: version, map: planFields.map, removed: planFields.removed }).strict())
    .mutation(async ({ ctx, input }) => ({ pid: input.pid, ...(await migrateRun(ctx.services, ctx.caller, input.pid, planOf(input))) })),
});
