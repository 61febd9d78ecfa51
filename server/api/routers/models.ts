/**
 * Models: validate, deploy, list with versions (archived ones only when asked), versions of one
 * model, get a version, diff two versions (as lines of text, or node by node), remove, archive and
 * un-archive (admins), export, import.
 */
import { z } from 'zod';
import YAML from 'yaml';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../audit.ts';
import { lineDiff } from '../diff.ts';
import { drawSoon } from '../model-graph.ts';
import { snapshotNodeIds } from '../model-node-ids.ts';
import { id, yamlSource } from '../limits.ts';
import { page, pageOf, toQuery } from '../paging.ts';
import { requirePassingTests } from '../step-test-gate.ts';
import { allowed, router } from '../trpc.ts';
import type { ApiServices } from '../context.ts';
import { diffModels } from '../../../vocab/model-diff/index.ts';

const version = z.number().int().min(1).max(1_000_000);

/** The model id of a source (for the audit target before deploy ran), or `?`. */
function sourceId(source: string): string {
  try {
    const doc = YAML.parse(source) as { id?: unknown } | null;
    return typeof doc?.id === 'string' ? doc.id : '?';
  } catch {
    return '?';
  }
}

/** The admin's archive (or un-archive) of a model, audited as `model.archive` (`model.unarchive`). */
function setArchived(archived: boolean) {
  return allowed('admin')
    .input(z.object({ id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: archived ? 'model.archive' : 'model.unarchive', target: input.id }, async () => {
        const row = await ctx.services.engine.models.setArchived(input.id, archived);
        return { id: row.id, archived: row.archived };
      }),
    );
}

/** A model whose versions still run processes is not removed: they are migrated, aborted or left to end first. */
async function requireNoRunning(services: ApiServices, mid: string): Promise<void> {
  const running = await services.engine.migrations.running(mid);
  if (running.length === 0) return;
  const total = running.reduce((sum, v) => sum + v.running, 0);
  const where = running.map((v) => `${v.running} on version ${v.ver}`).join(', ');
  throw new ActError('model.in_use', `model '${mid}' still has ${total} running process${total === 1 ? '' : 'es'} (${where}); migrate them to another model version, abort them or let them end, then remove it`, { running });
}

export const modelsRouter = router({
  validate: allowed('design')
    .input(z.object({ source: yamlSource }))
    .mutation(({ ctx, input }) => {
      const { problems, warnings } = ctx.services.engine.models.check(input.source);
      return { valid: problems.length === 0, problems, warnings };
    }),

  /** `requireTests` (or ACTS_DEPLOY_REQUIRE_TESTS): refuse with `model.tests_failed` unless the saved step tests pass. */
  deploy: allowed('design')
    .input(z.object({ source: yamlSource, note: z.string().max(2000).optional(), requireTests: z.boolean().optional() }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'model.deploy', target: sourceId(input.source), detail: { bytes: input.source.length, note: input.note } }, async () => {
        await requirePassingTests(ctx.services, input.source, input.requireTests);
        const deployed = await ctx.services.engine.models.deploy(input.source, { note: input.note, by: ctx.caller.name });
        drawSoon(ctx.services.engine, deployed.id, deployed.ver, input.source);
        return deployed;
      }),
    ),

  /** Deploys an exported document unless the latest version has the same source. */
  import: allowed('design')
    .input(z.object({ source: yamlSource }))
    .mutation(({ ctx, input }) => {
      const { engine } = ctx.services;
      const mid = sourceId(input.source);
      return audited(ctx.services, ctx.caller, { action: 'model.import', target: mid, detail: { bytes: input.source.length } }, async () => {
        const latest = mid === '?' ? undefined : await engine.models.get(mid).catch(() => undefined);
        if (latest && latest.data === input.source) return { id: latest.id, ver: latest.ver, deployed: false };
        const deployed = await engine.models.deploy(input.source);
        drawSoon(engine, deployed.id, deployed.ver, input.source);
        return { ...deployed, deployed: true };
      });
    }),

  list: allowed('read')
    .input(
      z
        .object({
          ...page,
          name: z.string().max(200).optional(),
          /** true: only the archived models; false or absent: only the others (an archived model is hidden). */
          archived: z.boolean().optional(),
        })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const filter = [!!input.name && { key: 'name', op: 'match' as const, value: input.name }, { key: 'archived', op: input.archived ? ('gt' as const) : ('eq' as const), value: 0 }];
      const data = await engine.models.list(toQuery(filter, input, { field: 'update_time', order: 'desc' }));
      const rows = await Promise.all(
        data.rows.map(async ({ data: _source, ...row }) => ({
          ...row,
          versions: (await engine.models.versions(row.id)).map((v) => ({ ver: v.ver, create_time: v.create_time, note: v.note ?? '', deployed_by: v.deployed_by ?? null })),
        })),
      );
      return pageOf({ count: data.count, rows }, input);
    }),

  /** Every version of one model, newest first (ver, time, note, deployer; no sources). */
  versions: allowed('read')
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      await engine.models.get(input.id);
      const rows = (await engine.models.versions(input.id)).map((v) => ({ ver: v.ver, create_time: v.create_time, note: v.note ?? '', deployed_by: v.deployed_by ?? null }));
      return { id: input.id, versions: rows.sort((a, b) => b.ver - a.ver) };
    }),

  /** One version's source (the latest without `ver`). */
  get: allowed('read')
    .input(z.object({ id, ver: version.optional() }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const ver = input.ver ?? (await engine.models.get(input.id)).ver;
      const row = await engine.models.version(input.id, ver);
      return { id: row.mid, ver: row.ver, source: row.data, create_time: row.create_time, note: row.note ?? '', deployed_by: row.deployed_by ?? null };
    }),

  diff: allowed('read')
    .input(z.object({ id, from: version, to: version }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const [a, b] = await Promise.all([engine.models.version(input.id, input.from), engine.models.version(input.id, input.to)]);
      return { id: input.id, from: a.ver, to: b.ver, lines: lineDiff(a.data, b.data) };
    }),

  /** The nodes added, removed, changed (which fields, old and new values) or moved from one version to another (vocab/model-diff); unchanged nodes are only counted. */
  structuralDiff: allowed('read')
    .input(z.object({ id, from: version, to: version }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const [a, b] = await Promise.all([engine.models.version(input.id, input.from), engine.models.version(input.id, input.to)]);
      const nids = (row: typeof a) => snapshotNodeIds(engine, { mid: row.mid, model_ver: row.ver, model: row.data });
      const diff = diffModels(a.data, b.data, { nids: { before: nids(a), after: nids(b) } });
      const changes = diff.changes.filter((c) => c.status !== 'unchanged');
      return { id: input.id, from: a.ver, to: b.ver, same: diff.same, changes, unchanged: diff.changes.length - changes.length };
    }),

  remove: allowed('design')
    .input(z.object({ id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'model.remove', target: input.id }, async () => {
        await requireNoRunning(ctx.services, input.id);
        if (!(await ctx.services.engine.models.remove(input.id))) throw new ActError('model.not_found', `model '${input.id}' is not deployed`);
        return { removed: true };
      }),
    ),

  /** Archives a model: hidden from the list, it starts no new process (`model.archived`); its runs go on, its versions stay readable. */
  archive: setArchived(true),
  /** Takes the archive mark away: the model is listed and starts processes again. */
  unarchive: setArchived(false),

  /** The source as a file to download. */
  export: allowed('read')
    .input(z.object({ id, ver: version.optional() }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const ver = input.ver ?? (await engine.models.get(input.id)).ver;
      const row = await engine.models.version(input.id, ver);
      return { filename: `${row.mid}.v${row.ver}.yml`, source: row.data };
    }),
});
