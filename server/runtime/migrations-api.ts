/**
 * The migration parts of the `Engine` facade (engine.ts; the operation itself is
 * engine/migrate.ts, applied as the `migrate` action wherever the process runs): the nodes of a
 * version a plan maps, the running processes of each version, the candidates of a bulk
 * migration, and the check of one process against a plan (as it is in memory or in the store).
 */
import type { Runtime } from './runtime-types.ts';
import type { Models } from './models.ts';
import type { ProcessReader } from './process-reader.ts';
import { checkMigration } from '../engine/migrate.ts';
import { asAct } from '../engine/tree/node.ts';
import { and, eq, oneOf } from '../store/contract/filters.ts';
import { UNFINISHED_PROC_STATES } from '../../vocab/states.ts';
import { MIGRATE_ACTION, type MigrationPlan, type MigrationProblem } from '../../vocab/migration.ts';
import type { ActionRequest } from './action-intake.ts';

/** A node of a version, as a migration plan names it. */
export interface MigrationNode {
  id: string;
  kind: string;
  name: string;
  /** The id of the node it sits under ('' for the workflow's own steps). */
  parent: string;
  /** An act's package; '' for other kinds. */
  uses: string;
}

const unfinishedOf = (mid: string, ver?: number) =>
  and(eq('mid', mid), ...(ver === undefined ? [] : [eq('model_ver', ver)]), oneOf('state', UNFINISHED_PROC_STATES));

export function migrationsApi(rt: Runtime, models: Models, reader: ProcessReader, take: (request: ActionRequest) => Promise<void>) {
  return {
    /** The compiled nodes of version `ver` of a model, in the model's order (the workflow itself left out). */
    nodes: async (mid: string, ver: number): Promise<MigrationNode[]> => {
      const { tree } = await models.version(mid, ver);
      return [...tree.nodes.values()]
        .filter((n) => n !== tree.root)
        .map((n) => ({ id: n.id, kind: n.kind, name: n.content.name, parent: n.parent && n.parent !== tree.root ? n.parent.id : '', uses: n.kind === 'act' ? asAct(n).uses : '' }));
    },
    /** How many processes of the model have not ended, per version (versions with none left out). */
    running: async (mid: string): Promise<Array<{ ver: number; running: number }>> => {
      await rt.writer.flush();
      const versions = await rt.store.queries.versionsOfModel(mid);
      const out: Array<{ ver: number; running: number }> = [];
      for (const v of versions) {
        const { count } = await rt.store.procs.query({ filter: unfinishedOf(mid, v.ver), limit: 1 });
        if (count > 0) out.push({ ver: v.ver, running: count });
      }
      return out.sort((a, b) => a.ver - b.ver);
    },
    /** The unfinished processes of version `ver`, oldest first, at most `limit`; and how many there are. */
    candidates: async (mid: string, ver: number, limit: number): Promise<{ pids: string[]; count: number }> => {
      await rt.writer.flush();
      const page = await rt.store.procs.query({ filter: unfinishedOf(mid, ver), order_by: [{ field: 'start_time', order: 'asc' }], limit });
      return { pids: page.rows.map((r) => r.id), count: page.count };
    },
    /** Why the process cannot follow the plan now (none: it can); changes nothing. */
    problems: async (pid: string, plan: MigrationPlan): Promise<MigrationProblem[]> => {
      const proc = await reader.loaded(pid);
      return checkMigration(proc, await models.version(proc.mid, plan.ver), plan);
    },
    /**
     * Moves the process to version `plan.ver` of its model, wherever it runs: every task at once,
     * or nothing (`process.migration_refused`, with the problems).
     */
    migrate: (pid: string, plan: MigrationPlan): Promise<void> => take({ pid, tid: '$', action: MIGRATE_ACTION, options: { ...plan } }),
  };
}

export type MigrationsApi = ReturnType<typeof migrationsApi>;
