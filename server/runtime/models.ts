/**
 * Model deploy, versions and the compiled-model cache (spec 4.3 with section 0.14): a deploy
 * validates everything, bumps the version, keeps the source of every version, and rewrites the
 * model's trigger rows (schedules re-armed: schedules.ts `nextRunOnDeploy`). Whoever times the
 * schedules hears of every change of trigger rows (`onTriggerRows`): a deploy or a removal here,
 * or, on a shared store, on another instance.
 *
 * The latest version of each model is cached compiled, so a start does not read the model row.
 * A store that only this engine writes (memory, SQLite under its engine lock) changes models only
 * through this cache: an entry is always current. On a shared store (PostgreSQL) a deploy or a
 * removal on any instance tells every instance (NOTIFY `acts_models`: the model id and its new
 * version, 0 when removed, and whether it is archived), which drops an entry of another version
 * or archive mark; an entry not confirmed by the store for `freshMs` (default 1 s) is read again,
 * the bound should a notification be lost.
 *
 * An archived model (an admin's `setArchived`) keeps its versions and its runs; `latest` says it is
 * archived and the starter refuses new processes of it (start.ts). A deploy keeps the mark.
 *
 * State, per model: uncached → cached (confirmed at a time) → dropped (deploy elsewhere, removal,
 * archive mark changed elsewhere). Besides: compiled snapshots of other versions (`SNAPSHOTS_KEPT`)
 * and the answers of the last full checks by text (`CHECKS_KEPT`, stale once a package changes).
 */
import { NO_SECRETS, type SecretReader } from '../engine/secrets.ts';
import { ActError } from '../engine/errors.ts';
import { loadModel, seededIds } from '../engine/model/index.ts';
import type { ModelProblem, Trigger, Workflow } from '../engine/model/types.ts';
import type { PackageRegistry } from '../engine/packages/registry.ts';
import { staticParamsProblem } from '../engine/packages/static-params.ts';
import type { Sandbox } from '../engine/sandbox/types.ts';
import type { EventRow, ModelRow, Store } from '../store/contract/types.ts';
import { compileWorkflow, type NodeTree } from '../engine/tree/compile.ts';
import type { Clock } from '../engine/clock.ts';
import { nextRunOnDeploy } from './schedules.ts';

/** The topic of model changes on a shared store; the payload is JSON `{ mid, ver, archived }` (ver 0: removed). */
export const MODELS_TOPIC = 'acts_models';
/** How long a cached latest version is used without asking a shared store again, ms. */
export const SHARED_MODEL_FRESH_MS = 1000;
/** How many compiled snapshots of versions other than the latest are kept (recovery, run pages). */
export const SNAPSHOTS_KEPT = 64;
/** How many answers of the full check are kept by text (the designer checks the text it opened, which its deploy checked). */
export const CHECKS_KEPT = 8;

export interface CompiledModel {
  workflow: Workflow;
  source: string;
  tree: NodeTree;
}

/** The latest version of a model, whether it is archived (it then starts no new process), and where its new runs pause. */
export interface LatestModel extends CompiledModel {
  archived: boolean;
  /** Node ids every new run of this version gets as its breakpoints (engine/control.ts). */
  breakpoints: string[];
}

/** The breakpoints of a model row's latest version (those set on an earlier version no longer apply). */
function versionBreakpoints(row: ModelRow): string[] {
  return row.breakpoints && row.breakpoints.ver === row.ver ? [...row.breakpoints.nodes] : [];
}

/** About a deployed version: the deployer's note and name (kept with the version). */
export interface DeployMeta {
  note?: string;
  by?: string | null;
}

export interface DeployResult {
  id: string;
  ver: number;
  /** What the model may do that is likely unintended (it deployed all the same). */
  warnings: ModelProblem[];
}

function triggerKind(uses: string): string {
  return uses.startsWith('acts.event.') ? uses.slice('acts.event.'.length) : uses;
}

export class Models {
  /** The latest version of each model, compiled; `confirmed`: when the store last agreed (Date.now()). */
  private readonly compiled = new Map<string, LatestModel & { ver: number; confirmed: number }>();
  private readonly snapshots = new Map<string, CompiledModel>();
  /** Answers of the full check by registry version and text, latest last (`CHECKS_KEPT`). */
  private readonly checks = new Map<string, { problems: ModelProblem[]; warnings: ModelProblem[] }>();
  private unlisten: (() => Promise<void>) | undefined;
  private triggersChanged: () => void = () => undefined;

  constructor(
    private readonly store: Store,
    private readonly registry: PackageRegistry,
    private readonly sandbox: Sandbox,
    private readonly clock: Clock,
    /** Whether other instances write models to the store too (the cache then expires and listens). */
    private readonly shared = false,
    /** On a shared store: how long a cached latest version is used without asking the store, ms. */
    private readonly freshMs = SHARED_MODEL_FRESH_MS,
    /** The project's secrets: deploy warns of a `{{ secrets.NAME }}` that is not stored. */
    private readonly secrets: SecretReader = NO_SECRETS,
  ) {}

  /** Calls `listener` after the trigger rows of a model changed (one listener: the schedule timer). */
  onTriggerRows(listener: () => void): void {
    this.triggersChanged = listener;
  }

  /** On a shared store: drops cached models that another instance deployed or removed, when told. */
  async watch(): Promise<void> {
    if (!this.shared || !this.store.listen || this.unlisten) return;
    this.unlisten = await this.store.listen(MODELS_TOPIC, (payload) => {
      const { mid, ver, archived = false } = JSON.parse(payload) as { mid: string; ver: number; archived?: boolean };
      const entry = this.compiled.get(mid);
      if (entry?.ver !== ver || entry.archived !== archived) this.compiled.delete(mid);
      this.triggersChanged();
    });
  }

  async unwatch(): Promise<void> {
    const off = this.unlisten;
    this.unlisten = undefined;
    await off?.().catch(() => undefined);
  }

  /**
   * Parses and validates a source; every problem at once. `deployed` sources (a stored version, a
   * process's snapshot) are checked for structure only: a package removed since, or a sandbox
   * change, must not make a stored process unreadable — the act that needs it fails at run time.
   */
  validate(source: string, deployed = false): { workflow?: Workflow; problems: ModelProblem[]; warnings?: ModelProblem[] } {
    const result = this.load(source, deployed);
    if (!deployed) this.remember(this.checkKey(source), { problems: result.problems, warnings: result.warnings ?? [] });
    return result;
  }

  /**
   * Every problem and warning of a source, as `validate` finds them; a text checked before against
   * the same packages is answered from memory (a 5,000-node model took 0.3-0.9 s of the server's
   * one thread at every designer open).
   */
  check(source: string): { problems: ModelProblem[]; warnings: ModelProblem[] } {
    const key = this.checkKey(source);
    const known = this.checks.get(key);
    if (known) return this.remember(key, known);
    this.validate(source); // remembers its answer
    return this.checks.get(key)!;
  }

  private checkKey(source: string): string {
    return `${this.registry.version}\n${source}`;
  }

  private remember(key: string, answer: { problems: ModelProblem[]; warnings: ModelProblem[] }) {
    this.checks.delete(key);
    this.checks.set(key, answer);
    if (this.checks.size > CHECKS_KEPT) this.checks.delete(this.checks.keys().next().value!);
    return answer;
  }

  private load(source: string, deployed: boolean): { workflow?: Workflow; problems: ModelProblem[]; warnings?: ModelProblem[] } {
    return loadModel(
      source,
      deployed
        ? {}
        : {
            knownPackage: (uses) => this.registry.isActPackage(uses),
            checkSyntax: (src, mode) => this.sandbox.checkSyntax(src, mode),
            checkParams: (uses, params) => staticParamsProblem(this.registry, uses, params),
            packageOff: (uses) => this.registry.offReason(uses),
            knownSecret: (name) => this.secrets.get(name) !== undefined,
          },
      // Generated node ids must be the same every time this source is parsed (see seededIds).
      { newId: seededIds(source) },
    );
  }

  parseOrThrow(source: string, deployed = false): Workflow {
    return this.loadOrThrow(source, deployed).workflow;
  }

  /** The valid model with its warnings; `model.invalid` with every problem otherwise. */
  private loadOrThrow(source: string, deployed: boolean): { workflow: Workflow; warnings: ModelProblem[] } {
    const { workflow, problems, warnings = [] } = this.validate(source, deployed);
    if (!workflow || problems.length > 0) {
      const first = problems[0];
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
      throw new ActError('model.invalid', `the model is invalid: ${first ? `${first.path || 'document'}: ${first.message}` : 'no content'}${more}`, problems);
    }
    return { workflow, warnings };
  }

  async deploy(source: string, meta: DeployMeta = {}): Promise<DeployResult> {
    const { workflow, warnings } = this.loadOrThrow(source, false);
    const now = this.clock.now();
    const existing = await this.store.models.find(workflow.id);
    const ver = existing ? existing.ver + 1 : 1;
    const row: ModelRow = {
      id: workflow.id,
      name: workflow.name,
      ver,
      size: Buffer.byteLength(source),
      data: source,
      create_time: existing?.create_time ?? now,
      update_time: now,
      archived: existing?.archived ?? 0,
    };
    await this.store.models.upsert(row);
    await this.store.modelVersions.upsert({
      id: `${workflow.id}:${ver}`,
      mid: workflow.id,
      ver,
      data: source,
      create_time: now,
      note: meta.note ?? '',
      deployed_by: meta.by ?? null,
    });
    await this.writeTriggers(workflow, ver, now);
    this.triggersChanged();
    this.compiled.set(workflow.id, { ver, workflow: { ...workflow, ver }, source, tree: compileWorkflow({ ...workflow, ver }), archived: row.archived > 0, breakpoints: [], confirmed: Date.now() });
    await this.told(workflow.id, ver, row.archived > 0);
    return { id: workflow.id, ver, warnings };
  }

  private async writeTriggers(workflow: Workflow, ver: number, now: number): Promise<void> {
    const existing = await this.store.queries.triggersOfModel(workflow.id);
    const keep = new Set(workflow.on.map((t) => `${workflow.id}:${t.id}`));
    for (const row of existing) if (!keep.has(row.id)) await this.store.events.delete(row.id);
    for (const trigger of workflow.on) {
      const id = `${workflow.id}:${trigger.id}`;
      const old = existing.find((r) => r.id === id);
      await this.store.events.upsert(this.triggerRow(workflow.id, ver, trigger, old, now));
    }
  }

  private triggerRow(mid: string, ver: number, t: Trigger, old: EventRow | undefined, now: number): EventRow {
    const cron = t.cron || null;
    const timezone = t.timezone || null;
    return {
      id: `${mid}:${t.id}`,
      mid,
      name: t.name,
      ver,
      uses: t.uses,
      kind: triggerKind(t.uses),
      params: t.params ?? null,
      cron,
      timezone,
      next_run: nextRunOnDeploy(cron, timezone, old, now),
      last_run: old?.last_run ?? 0,
      enabled: old?.enabled ?? true,
      create_time: old?.create_time ?? now,
      update_time: now,
    };
  }

  /** The latest deployed version, compiled; read from the store only when not cached (see the header). */
  async latest(mid: string): Promise<LatestModel> {
    const cached = this.compiled.get(mid);
    if (cached && (!this.shared || Date.now() - cached.confirmed < this.freshMs)) return cached;
    const asked = Date.now();
    const row = await this.store.models.find(mid);
    if (!row) {
      this.compiled.delete(mid);
      throw new ActError('model.not_found', `model '${mid}' is not deployed`);
    }
    const current = this.compiled.get(mid);
    if (current && current.ver === row.ver && current.archived === row.archived > 0) {
      current.breakpoints = versionBreakpoints(row);
      current.confirmed = asked;
      return current;
    }
    const workflow = { ...this.parseOrThrow(row.data, true), ver: row.ver };
    const entry = { ver: row.ver, workflow, source: row.data, tree: compileWorkflow(workflow), archived: row.archived > 0, breakpoints: versionBreakpoints(row), confirmed: asked };
    this.compiled.set(mid, entry);
    return entry;
  }

  /** The model a stored process runs: its own source snapshot, compiled once per version (or the cached latest, when it is that version). */
  snapshot(mid: string, ver: number, source: string): CompiledModel {
    const key = `${mid}:${ver}`;
    const cached = this.snapshots.get(key);
    if (cached && cached.source === source) return cached;
    // the latest version compiled at its deploy serves its processes too (no second parse of a big model)
    const latest = this.compiled.get(mid);
    if (latest && latest.ver === ver && latest.source === source) return latest;
    const workflow = { ...this.parseOrThrow(source, true), ver };
    const entry = { workflow, source, tree: compileWorkflow(workflow) };
    this.snapshots.set(key, entry);
    // bounded: run pages read old versions too; the oldest entry goes first
    if (this.snapshots.size > SNAPSHOTS_KEPT) this.snapshots.delete(this.snapshots.keys().next().value!);
    return entry;
  }

  /** Version `ver` of model `mid`, compiled, when it is held here (the latest, or a snapshot kept); a migration loads its target first (`version`). */
  heldVersion(mid: string, ver: number): CompiledModel | undefined {
    const latest = this.compiled.get(mid);
    if (latest && latest.ver === ver) return latest;
    return this.snapshots.get(`${mid}:${ver}`);
  }

  /** Version `ver` of model `mid` as deployed, compiled (and kept: `heldVersion`); `model.not_found` when it is not deployed. */
  async version(mid: string, ver: number): Promise<CompiledModel> {
    const held = this.heldVersion(mid, ver);
    if (held) return held;
    const row = await this.store.modelVersions.find(`${mid}:${ver}`);
    if (!row) throw new ActError('model.not_found', `version ${ver} of model '${mid}' is not deployed`);
    return this.snapshot(mid, ver, row.data);
  }

  /** Archives the model (now) or takes the mark away; `model.not_found` when it is not deployed. Returns the row. */
  async setArchived(mid: string, archived: boolean): Promise<ModelRow> {
    const existing = await this.store.models.find(mid);
    if (!existing) throw new ActError('model.not_found', `model '${mid}' is not deployed`);
    const row = { ...existing, archived: archived ? existing.archived || this.clock.now() : 0 };
    await this.store.models.update(row);
    this.compiled.delete(mid);
    await this.told(mid, row.ver, archived);
    return row;
  }

  /**
   * Sets the node ids every new run of version `ver` of model `mid` pauses at (it must be the
   * latest: only it starts new runs). Other instances of a shared store see them once their
   * cached entry is confirmed again (within `freshMs`). Returns the row.
   */
  async setBreakpoints(mid: string, ver: number, nodes: string[]): Promise<ModelRow> {
    const existing = await this.store.models.find(mid);
    if (!existing) throw new ActError('model.not_found', `model '${mid}' is not deployed`);
    if (existing.ver !== ver) {
      throw new ActError('model.version_not_latest', `version ${ver} of model '${mid}' starts no new runs: its latest version is ${existing.ver}; set the breakpoints on that one`);
    }
    const row = { ...existing, breakpoints: nodes.length > 0 ? { ver, nodes: [...new Set(nodes)] } : null };
    await this.store.models.update(row);
    const cached = this.compiled.get(mid);
    if (cached && cached.ver === ver) cached.breakpoints = versionBreakpoints(row);
    return row;
  }

  async remove(mid: string): Promise<boolean> {
    this.compiled.delete(mid);
    await this.store.queries.deleteTriggersOfModel(mid);
    this.triggersChanged();
    await this.store.queries.deleteVersionsOfModel(mid);
    const removed = await this.store.models.delete(mid);
    await this.told(mid, 0);
    return removed;
  }

  /** Tells the other instances of a shared store that model `mid` is at version `ver` now (0: removed), archived or not. */
  private async told(mid: string, ver: number, archived = false): Promise<void> {
    if (this.shared) await this.store.notify?.(MODELS_TOPIC, JSON.stringify({ mid, ver, archived }));
  }
}
