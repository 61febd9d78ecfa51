/**
 * The catalog parts of the `Engine` facade (engine.ts): models (validate, deploy, versions, the
 * compiled tree), packages (the registry and its rows) and triggers (list, enable, fire).
 */
import type { Runtime } from './runtime-types.ts';
import { ActError } from '../engine/errors.ts';
import type { ModelProblem, Vars, Workflow } from '../engine/model/types.ts';
import { TRIGGER_PACKAGES } from '../engine/packages/builtins.ts';
import type { PackageDef, PackageMeta } from '../engine/packages/types.ts';
import type { EventRow, ModelRow, ModelVersionRow, PackageRow, PageData, Query } from '../store/contract/types.ts';
import { printTree } from '../engine/tree/print.ts';
import type { ProcInfo } from './info.ts';
import type { DeployMeta, DeployResult, Models } from './models.ts';
import type { StartContext, StartedProc } from './engine-types.ts';
import { isVarsObject } from '../engine/vars.ts';
import { and, eq } from '../store/contract/filters.ts';

export async function publishPackages(rt: Runtime): Promise<void> {
  for (const pkg of rt.registry.list()) await rt.store.packages.upsert(packageRow(rt, pkg));
}

function packageRow(rt: Runtime, pkg: PackageDef): PackageRow {
  const now = rt.clock.now();
  return {
    id: pkg.name,
    desc: pkg.desc,
    icon: pkg.icon,
    doc: pkg.doc,
    version: pkg.version,
    schema: pkg.schema,
    run_as: pkg.run_as,
    resources: pkg.resources,
    catalog: pkg.catalog,
    built_in: rt.registry.isBuiltIn(pkg.name),
    create_time: now,
    update_time: now,
  };
}

export type ModelsApi = ReturnType<typeof modelsApi>;

export function modelsApi(
  rt: Runtime,
  models: Models,
  check: () => void,
  /** Loads external packages other engines registered (a deploy checks acts against them). */
  refreshPackages: () => Promise<void> = async () => {},
) {
  return {
    /** Parses and validates without deploying; returns every problem. */
    validate: (source: string): ModelProblem[] => models.validate(source).problems,
    /** Every problem, and the warnings of a valid model (see model/loop-warnings.ts; none for an invalid one). */
    check: (source: string): { problems: ModelProblem[]; warnings: ModelProblem[] } => models.check(source),
    deploy: async (source: string, meta?: DeployMeta): Promise<DeployResult> => {
      check();
      await refreshPackages();
      return models.deploy(source, meta);
    },
    list: (query?: Query): Promise<PageData<ModelRow>> => rt.store.models.query(query),
    get: async (id: string): Promise<ModelRow> => {
      const row = await rt.store.models.find(id);
      if (!row) throw new ActError('model.not_found', `model '${id}' is not deployed`);
      return row;
    },
    /** The deployed versions of a model, lowest first. */
    versions: (id: string): Promise<ModelVersionRow[]> => rt.store.queries.versionsOfModel(id),
    version: async (id: string, ver: number): Promise<ModelVersionRow> => {
      const row = await rt.store.modelVersions.find(`${id}:${ver}`);
      if (!row) throw new ActError('model.not_found', `model '${id}' has no version ${ver}`);
      return row;
    },
    remove: (id: string): Promise<boolean> => models.remove(id),
    /** Sets the breakpoints every new run of the model's latest version `ver` gets (engine/control.ts). */
    setBreakpoints: (id: string, ver: number, nodes: string[]): Promise<ModelRow> => models.setBreakpoints(id, ver, nodes),
    /** Archives a model (it starts no new process; its runs and history stay) or un-archives it. */
    setArchived: (id: string, archived: boolean): Promise<ModelRow> => {
      check();
      return models.setArchived(id, archived);
    },
    /** The workflow a stored process runs (its source snapshot), parsed once per version. */
    snapshot: (mid: string, ver: number, source: string): Workflow => models.snapshot(mid, ver, source).workflow,
    /** The latest version compiled into its node tree, printed as indented text. */
    tree: async (id: string): Promise<string> => printTree((await models.latest(id)).tree),
  };
}

export type PackagesApi = ReturnType<typeof packagesApi>;

/** Told when a package became external (run_as `worker`) on this engine, or stopped being one. */
export interface ExternalPackages {
  opened(name: string): void;
  closed(name: string): void;
}

/** A package row with `off`: why this server does not run the package (its configuration), or null. */
export type ServedPackageRow = PackageRow & { off: string | null };

export function packagesApi(rt: Runtime, external: ExternalPackages) {
  const follow = (pkg: PackageMeta): void => (pkg.run_as === 'worker' ? external.opened(pkg.name) : external.closed(pkg.name));
  const served = (row: PackageRow): ServedPackageRow => ({ ...row, off: rt.registry.offReason(row.id) });
  return {
    register: async (meta: Partial<PackageMeta> & { name: string; run_as: PackageMeta['run_as'] }): Promise<PackageMeta> => {
      const pkg = rt.registry.register(meta);
      await rt.store.packages.upsert(packageRow(rt, pkg));
      follow(pkg);
      return pkg;
    },
    /**
     * Loads the external packages other engines registered on the shared store into this one's
     * registry (at start, and before a deploy or a worker's poll that names one it lacks).
     */
    refresh: async (): Promise<void> => {
      const rows = await rt.store.packages.query({ filter: and(eq('run_as', 'worker')) });
      for (const row of rows.rows) {
        if (row.built_in) continue;
        const known = rt.registry.get(row.id);
        if (known?.run_as === 'worker' && JSON.stringify(known.schema) === JSON.stringify(row.schema) && known.desc === row.desc) continue;
        follow(rt.registry.register({ name: row.id, desc: row.desc, icon: row.icon, doc: row.doc, version: row.version, schema: row.schema as PackageMeta['schema'], run_as: 'worker', resources: row.resources, catalog: row.catalog as PackageMeta['catalog'] }));
      }
    },
    list: async (query?: Query): Promise<PageData<ServedPackageRow>> => {
      const page = await rt.store.packages.query(query);
      return { ...page, rows: page.rows.map(served) };
    },
    get: async (name: string): Promise<ServedPackageRow> => {
      const row = await rt.store.packages.find(name);
      if (!row) throw new ActError('package.unknown', `unknown package '${name}'`);
      return served(row);
    },
    remove: async (name: string): Promise<boolean> => {
      const removed = rt.registry.unregister(name);
      external.closed(name);
      await rt.store.packages.delete(name);
      return removed;
    },
  };
}

export type TriggersApi = ReturnType<typeof triggersApi>;

export function triggersApi(
  rt: Runtime,
  start: (mid: string, options: Vars, context: StartContext) => Promise<StartedProc>,
  waitFinished: (pid: string) => Promise<ProcInfo>,
  /** Told after a trigger row changed (the schedule timer arms again). */
  changed: () => void,
) {
  const api = {
    list: (query?: Query): Promise<PageData<EventRow>> => rt.store.events.query(query),
    get: async (id: string): Promise<EventRow> => {
      const row = await rt.store.events.find(id);
      if (!row) throw new ActError('trigger.not_found', `cannot find trigger '${id}'`);
      return row;
    },
    /** Enables or disables a trigger; a disabled schedule does not fire. */
    setEnabled: async (id: string, enabled: boolean): Promise<EventRow> => {
      const row = await api.get(id);
      const updated = { ...row, enabled, update_time: rt.clock.now() };
      await rt.store.events.update(updated);
      changed();
      return updated;
    },
    /**
     * Fires a trigger (spec 1.9.2): manual/schedule → `{pid}`; hook → the process outputs once it
     * completed; chat → `{pid}` with the text as input `data`. `params` null → the trigger's own.
     * `idempotencyKey`: a repeated fire answers the first process (its pid, or a hook's outputs).
     */
    start: async (id: string, params?: unknown, context: { idempotencyKey?: string } = {}): Promise<Vars> => {
      const row = await api.get(id);
      if (!TRIGGER_PACKAGES.has(row.uses)) throw new ActError('trigger.not_found', `trigger '${id}' uses unknown package '${row.uses}'`);
      const given = params === undefined || params === null ? row.params : params;
      if (row.kind === 'chat') {
        const proc = await start(row.mid, { data: typeof given === 'string' ? given : JSON.stringify(given ?? '') }, context);
        return { pid: proc.pid, repeated: proc.repeated };
      }
      if (given !== null && given !== undefined && !isVarsObject(given)) {
        throw new ActError('inputs.invalid', `trigger '${id}': params must be an object, got ${Array.isArray(given) ? 'an array' : typeof given}`);
      }
      const proc = await start(row.mid, (given as Vars) ?? {}, context);
      if (row.kind !== 'hook') return { pid: proc.pid, repeated: proc.repeated };
      const done = await waitFinished(proc.pid);
      if (done.state === 'error') throw new ActError('internal', `process ${proc.pid} failed: ${done.err?.message ?? 'unknown error'}`, done.err);
      return done.outputs;
    },
  };
  return api;
}
