/**
 * One simulated run: a seed → generated models, an engine on a manual clock with seeded ids (on
 * the memory store or a SQLite file), the actor's stimuli, and the invariants after every step.
 * With `crashAfterWrites` the SQLite store dies right after that many writes (crash-store.ts); the
 * run then drops the engine, opens a new one on the same file (it recovers), repeats the
 * stimulus the crash interrupted (a client retries an unconfirmed call) and goes on. A seed may
 * also deploy second versions of its models and migrate processes to them (migrator.ts); each
 * `migrate` is checked against the process as it was just before (migration-watch.ts).
 *
 * Steps: settle (engine idle) → observe (world view) → check invariants → decide → apply.
 * States: running → (crashed → recovering → running) → done | failed (a violation).
 */
import { CodeGate } from './code-gate.ts';
import { ManualClock } from '../../server/engine/clock.ts';
import { Engine } from '../../server/runtime/engine.ts';
import type { ListenedEngine } from '../../server/runtime/engine-types.ts';
import { ActError, errorMessage } from '../../server/engine/errors.ts';
import type { Logger } from '../../server/engine/logger.ts';
import type { TaskInfo } from '../../server/runtime/info.ts';
import { MemoryStore } from '../../server/store/contract/memory.ts';
import type { Store } from '../../server/store/contract/types.ts';
import { openStore, type OpenedStore } from '../../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts';
import { MIGRATE_ACTION, type MigrationPlan, type MigrationProblem } from '../../vocab/migration.ts';
import { Actor, placeOf, type Stimulus } from './actor.ts';
import { rootOf } from './admissible.ts';
import { CrashStore } from './crash-store.ts';
import { generateScenario, type GeneratedModel } from './generate.ts';
import { modelFacts } from './model-facts.ts';
import { migrated, refused, snapshot, type ProcSnapshot } from './migration-watch.ts';
import { migratorFor, type Migrator } from './migrator.ts';
import { SIM_EPOCH, toScriptStep, type Limits, type Regression, type ScriptStep } from './regression.ts';
import { PASS_JOBS_WRITES_ELSEWHERE } from '../../server/runtime/lanes.ts';
import { checkInvariants, type HistoryEntry, type ProcView, type Violation, type WorldView } from './invariants.ts';
import { Rng } from './rng.ts';

export interface SimOptions {
  seed: number;
  /** Replays a stored case (its models, limits and stimuli) instead of generating from the seed. */
  regression?: Regression;
  store: 'memory' | 'sqlite';
  /** SQLite only: the store dies right after this many completed writes. */
  crashAfterWrites?: number;
  /** Client actions before the actor only completes what is open (default 30). */
  maxActions?: number;
  /** Prints the run step by step. */
  log?: (line: string) => void;
  /**
   * Another interleaving of the same run (crash equivalence looks for one, see admissible.ts):
   * the engine's ids from another stream (other pids, other lanes) and, with code workers, the
   * answers handed over in an order drawn from it. 0 or absent: the run's own order.
   */
  order?: number;
}

export interface SimResult {
  seed: number;
  violations: Violation[];
  /** Processes that ran (roots and subflow children). */
  processes: number;
  actions: number;
  steps: number;
  crashes: number;
  /** Store writes the run made (crash points are drawn from this range). */
  writes: number;
  /** Migrations the client asked for that went through, and those refused (checked, not crashed). */
  migrations: { moved: number; refused: number };
  /** The final state, independent of generated ids: one line per process. */
  digest: string[];
  /** Families (root names) with subflow children, whose processes race (`racedFamilies`). */
  raced: string[];
  /** What the run was, to store it as a regression case. */
  limits: Limits;
  models: string[];
  script: ScriptStep[];
}

const TICK_MS = 1000;
const MAX_STEPS = 600;
/** Errors a client may get back for a legitimate but refused stimulus. */
const REFUSALS = new Set(['action.refused', 'action.invalid_options', 'action.unknown_outcome', 'process.duplicate_pid', 'process.migration_refused', 'vote.already_voted', 'vote.votes_decide']);

/**
 * Engine configurations the seeds draw from: defaults, tight admission and lane bounds, and a
 * code worker (code acts, and expressions that outgrow their trial, leave the engine's thread).
 */
function engineLimits(rng: Rng): Limits {
  const tight = rng.chance(0.2);
  const limits = { cacheCap: tight ? rng.int(1, 3) : 1024, schedulerWorkers: rng.int(1, 4), schedulerQueueCap: rng.chance(0.15) ? rng.int(4, 16) : 4096 };
  // drawn last, so the draws above (and every earlier campaign's scenarios) stay as they were
  return rng.chance(0.25) ? { ...limits, codeWorkers: 1 } : limits;
}

/** Collects the task events and messages whose store batch committed, in emission order. */
class HistoryLog {
  readonly committed: HistoryEntry[] = [];
  private pending: Array<{ seq: number; entry: HistoryEntry }> = [];

  add(entry: HistoryEntry, seq: number): void {
    this.pending.push({ seq, entry });
  }

  onCommitted(seq: number, ok: boolean): void {
    const keep = this.pending.filter((p) => p.seq > seq);
    for (const p of this.pending) if (p.seq <= seq && ok) this.committed.push(p.entry);
    this.pending = keep;
  }

  /** A crash: what was not committed never happened. */
  drop(): void {
    this.pending = [];
  }
}

class Simulation {
  private readonly rng: Rng;
  private readonly clock = new ManualClock(SIM_EPOCH);
  private readonly log = new HistoryLog();
  private readonly violations: Violation[] = [];
  private readonly errors: string[] = [];
  private engine!: Engine;
  private gate: CodeGate | undefined;
  private generation = 0;
  private memory: MemoryStore | undefined;
  private database: TestDatabase | undefined;
  private opened: OpenedStore[] = [];
  private crash: CrashStore | undefined;
  private crashed = false;
  crashes = 0;
  private readonly limits: Limits;
  readonly models: GeneratedModel[];
  /** What the run does before (or instead of) the actor's choices: starts, or a stored case. */
  private readonly script: ScriptStep[];
  private readonly executed: Stimulus[] = [];
  /** The actor's stream for pausing, breakpoints and incidents (and whether incidents are on). */
  private readonly controlRng: Rng;
  /** Second versions of the models and the client's migrations to them (a stream of their own). */
  private readonly migrator: Migrator | undefined;
  private readonly migrations = { moved: 0, refused: 0 };

  constructor(private readonly options: SimOptions) {
    this.rng = new Rng(options.seed);
    const scenario = generateScenario(this.rng.fork());
    const starts = this.rng.int(1, 4);
    // process control draws from a stream of its own, so the draws above stay as they were for every seed
    this.controlRng = new Rng(options.seed * 48271 + 11);
    const drawn = engineLimits(this.rng.fork());
    const controlled = this.controlRng.chance(0.3) ? { ...drawn, incidents: true } : drawn;
    // the lanes' pass from a stream of its own too: every draw above stays as it was
    const limits = new Rng(options.seed * 65537 + 29).chance(0.5) ? { ...controlled, lanePassJobs: PASS_JOBS_WRITES_ELSEWHERE } : controlled;
    const stored = options.regression;
    this.models = stored ? stored.models.map((source) => ({ ...modelFacts(source), source })) : scenario.models;
    this.limits = stored?.limits ?? limits;
    this.migrator = stored ? undefined : migratorFor(options.seed, this.models);
    this.script = stored ? [...stored.script] : Array.from({ length: starts }, (_, i) => ({ start: `p${i}`, mid: scenario.main, inputs: { v2: i } }));
  }

  get writes(): number {
    return this.crash?.writes ?? 0;
  }

  private trace(line: string): void {
    this.options.log?.(line);
  }

  private logger(): Logger {
    const me = this.generation;
    const record = (level: string) => (msg: string) => {
      if (me !== this.generation || this.crashed) return; // a dead engine's last words
      this.trace(`  [${level}] ${msg}`);
      if (level === 'error') this.errors.push(msg);
    };
    return { debug: () => {}, info: () => {}, warn: record('warn'), error: record('error') };
  }

  // ---- engines ----

  private async openStore(first: boolean): Promise<Store> {
    if (this.options.store === 'memory') return (this.memory ??= new MemoryStore());
    this.database ??= await createTestDatabase('sqlite');
    // commits on the store's connection: a write thread's timing would make a seed's end vary
    const inner = await openStore(this.database.url, { writeThread: false });
    this.opened.push(inner);
    if (!first) {
      // the crashed engine's process is gone: its instance row no longer holds the file
      await inner.instances.deleteWhere({ type: 'and', exprs: [] });
      return inner;
    }
    this.crash = new CrashStore(inner, this.options.crashAfterWrites, () => {
      this.crashed = true;
    });
    return this.crash.store;
  }

  private async openEngine(first: boolean): Promise<void> {
    const store = await this.openStore(first);
    const generation = ++this.generation;
    this.gate?.close();
    // with code workers: every expression goes to a worker, answers land at fixed points (code-gate.ts)
    const created: { engine?: Engine } = {};
    const order = this.options.order ?? 0;
    const answers = order > 0 ? new Rng(this.options.seed * 65537 + order) : undefined;
    const pick = answers ? (waiting: number) => answers.int(0, waiting - 1) : undefined;
    const gate = this.limits.codeWorkers ? new CodeGate(() => created.engine?.waitsOnlyForCode() ?? false, pick) : undefined;
    this.gate = gate;
    const live = () => generation === this.generation && !this.crashed;
    // heard from before the boot recovery: an action recorded before a crash is applied by it
    const listen = (engine: ListenedEngine) => {
      const seq = () => engine.batchSeq() + 1;
      engine.on('task', ({ task }) => live() && this.log.add({ kind: 'task', pid: task.pid, tid: task.tid, nid: task.node.id, type: task.kind, state: task.state }, seq()));
      engine.on('message', (m) => live() && this.log.add({ kind: 'message', pid: m.pid, tid: m.tid, nid: m.nid, type: m.type, state: m.state }, seq()));
      engine.on('control', ({ proc }) => live() && this.log.add({ kind: 'control', pid: proc.pid, tid: '$', nid: proc.mid, type: 'process', state: proc.control?.paused ? 'paused' : 'running' }, seq()));
      // the commit the crash came right after is durable: its history counts (later ones fail)
      engine.on('committed', ({ seq, ok }) => generation === this.generation && this.log.onCommitted(seq, ok));
    };
    const engine = await Engine.create({
      store,
      clock: this.clock,
      newId: new Rng(this.options.seed * 7919 + generation + order * 104729).ids(),
      autoTick: false,
      tickIntervalSecs: TICK_MS / 1000,
      logger: this.logger(),
      listen,
      ...this.limits,
      ...(gate ? { codeAnswers: gate.deliver, expressionTrialMs: 0 } : {}),
    });
    created.engine = engine;
    this.engine = engine;
    engine.channel({ id: 'sim-ack', ack: true }).onMessage((m) => {
      // acknowledge about half the deliveries, decided by the message, not by a random draw
      if (live() && m.delivery_id && m.nid.length % 2 === 0) void engine.messages.ack(m.delivery_id).catch(() => undefined);
    });
  }

  /** The crash happened: drop the engine without letting it write, open a new one on the file. */
  private async recover(): Promise<void> {
    this.crashes++;
    this.log.drop();
    this.trace(`-- crash after ${this.writes} writes; restarting on the same file`);
    const dead = this.engine;
    this.generation++;
    await dead.close().catch(() => undefined);
    this.crashed = false;
    this.crash = undefined;
    await this.openEngine(false);
  }

  // ---- the world ----

  private async observe(final: boolean): Promise<WorldView> {
    const engine = this.engine;
    await engine.idle();
    const rows = (await engine.procs.list({ order_by: ['timestamp'] })).rows;
    const tasks = new Map<string, TaskInfo[]>();
    for (const row of rows) tasks.set(row.id, await engine.tasks.list(row.id));
    const names = new Map<string, string>();
    const nameOf = (pid: string): string => {
      const known = names.get(pid);
      if (known) return known;
      const row = rows.find((r) => r.id === pid)!;
      let name = pid;
      if (row.parent_pid && row.parent_tid) {
        const parentTasks = tasks.get(row.parent_pid) ?? [];
        const byTid = new Map(parentTasks.map((t) => [t.tid, t]));
        const act = byTid.get(row.parent_tid);
        name = `${nameOf(row.parent_pid)}>${act ? placeOf(act, byTid) : '?'}`;
      }
      names.set(pid, name);
      return name;
    };
    const procs: ProcView[] = rows.map((row) => ({ name: nameOf(row.id), row, tasks: tasks.get(row.id) ?? [] }));
    return {
      procs,
      ops: await engine.outbox(),
      stuck: await engine.stuckProcesses(),
      resident: engine.stats().processes,
      cacheCap: this.limits.cacheCap,
      final,
      models: (await engine.models.list()).rows,
    };
  }

  private check(world: WorldView): boolean {
    const found = checkInvariants(world, this.log.committed);
    for (const message of this.errors.splice(0)) found.push({ invariant: 'engine-error', detail: message });
    for (const v of found) this.violations.push(v);
    return found.length === 0;
  }

  // ---- stimuli ----

  /** Applies one stimulus; returns false when it must be repeated (a crash or a full lane). */
  private async apply(s: Stimulus): Promise<boolean> {
    const engine = this.engine;
    let watched: { before: ProcSnapshot; plan: MigrationPlan } | undefined;
    try {
      if (s.kind === 'start') await engine.procs.start(s.mid, { ...s.inputs, pid: s.pid });
      else if (s.kind === 'time') {
        this.clock.set(Math.max(this.clock.now(), s.to));
        await engine.tick();
      } else if (s.kind === 'deploy') await engine.models.deploy(s.source);
      else {
        if (s.action === MIGRATE_ACTION) watched = { before: await snapshot(engine, s.pid, s.proc), plan: s.options as unknown as MigrationPlan };
        await engine.do({ pid: s.pid, tid: s.tid, action: s.action, options: s.options });
      }
      const done = !this.crashed;
      if (done) this.trace(`${describe(s)} -> ok`);
      if (done && watched) await this.checkMigration(watched, null);
      return done;
    } catch (err) {
      if (this.crashed) return false;
      const code = ActError.is(err) ? err.code : 'thrown';
      this.trace(`${describe(s)} -> ${code}: ${errorMessage(err)}`);
      if (watched && REFUSALS.has(code)) await this.checkMigration(watched, code === 'process.migration_refused' ? ((err as ActError).details as { problems: MigrationProblem[] }) : { problems: [] });
      if (code === 'engine.busy') return false;
      if (!REFUSALS.has(code)) this.violations.push({ invariant: 'unexpected-refusal', pid: 'pid' in s ? s.pid : undefined, detail: `${describe(s)} failed with ${code}: ${errorMessage(err)}` });
      return true;
    }
  }

  /** After a migration went through (`refusal` null) or was refused: what it must have done (migration-watch.ts). */
  private async checkMigration({ before, plan }: { before: ProcSnapshot; plan: MigrationPlan }, refusal: { problems: MigrationProblem[] } | null): Promise<void> {
    const engine = this.engine;
    try {
      await engine.idle();
      const after = await snapshot(engine, before.row.id, before.name);
      const found = refusal ? refused(before, after, refusal.problems) : migrated(after, plan.ver, (await engine.models.version(after.row.mid, plan.ver)).data);
      if (this.crashed) return;
      this.violations.push(...found);
      this.migrations[refusal ? 'refused' : 'moved']++;
    } catch (err) {
      if (!this.crashed) throw err; // a crash meanwhile: the run goes on from the recovered engine
    }
  }

  /** The starts at the head of the script go out before anything is observed. */
  private startNow(): Stimulus | undefined {
    const step = this.script[0];
    if (!step || !('start' in step)) return undefined;
    this.script.shift();
    return { kind: 'start', pid: step.start, mid: step.mid, inputs: step.inputs };
  }

  /** A view of the settled engine; a crash while reading it is recovered from like any other. */
  private async view(final: boolean): Promise<WorldView> {
    for (;;) {
      const world = await this.observe(final).catch((err) => (this.crashed ? undefined : Promise.reject(err)));
      if (world && !this.crashed) return world;
      await this.recover();
    }
  }

  /**
   * Whether the engine made a stimulus durable before the crash (a start's process row, an
   * action's outbox record): the client then need not send it again — recovery applies it.
   */
  private async recorded(s: Stimulus): Promise<boolean> {
    if (s.kind === 'time') return false;
    if (s.kind === 'deploy') return (await this.engine.models.versions(s.mid)).some((v) => v.data === s.source);
    if (s.kind === 'start') return (await this.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'id', op: 'eq', value: s.pid }] } })).count > 0;
    const ops = await this.engine.outbox({ filter: { type: 'and', exprs: [{ key: 'type', op: 'eq', value: 'action' }, { key: 'pid', op: 'eq', value: s.pid }, { key: 'tid', op: 'eq', value: s.tid }, { key: 'event', op: 'eq', value: s.action }] } });
    if (ops.length > 0) this.trace(`   (${describe(s)} was recorded before the crash: not sent again)`);
    return ops.length > 0;
  }

  /**
   * The next stored step as a stimulus for the world as it is now: the target of an action is the
   * newest task at its place (in the state it had when it was chosen, if there is one); null when
   * nothing is there any more (the step is skipped).
   */
  private fromScript(step: ScriptStep, world: WorldView): Stimulus | null {
    if ('start' in step) return { kind: 'start', pid: step.start, mid: step.mid, inputs: step.inputs };
    if ('time' in step) return { kind: 'time', to: SIM_EPOCH + step.time };
    if ('deploy' in step) return { kind: 'deploy', mid: step.deploy, source: step.source };
    const proc = world.procs.find((p) => p.name === step.proc);
    if (!proc) return null;
    const byTid = new Map(proc.tasks.map((t) => [t.tid, t]));
    const here = step.place === proc.row.mid ? proc.tasks.filter((t) => t.tid === '$') : proc.tasks.filter((t) => placeOf(t, byTid) === step.place);
    const target = here.filter((t) => t.state === step.state).at(-1) ?? here.at(-1);
    if (!target) {
      this.trace(`(skipped: nothing at ${step.proc}|${step.place} for ${step.action})`);
      return null;
    }
    return { kind: 'action', pid: proc.row.id, tid: target.tid, action: step.action, options: step.options, proc: step.proc, place: step.place, state: target.state };
  }

  async run(): Promise<SimResult> {
    const maxActions = this.options.regression ? 0 : (this.options.maxActions ?? 30);
    const actor = new Actor(this.rng.fork(), new Map(this.models.map((m) => [m.id, m])), maxActions, this.controlRng, this.migrator);
    this.trace(`seed ${this.options.seed}: ${this.models.length} model(s), limits ${JSON.stringify(this.limits)}`);
    for (const m of this.models) this.trace(m.source);
    for (const e of this.migrator?.edits.values() ?? []) this.trace(`second version of ${e.mid}: ${e.what.join(', ')}; plan ${JSON.stringify(e.plan)}\n${e.source}`);
    await this.openEngine(true);
    let steps = 0;
    let leftovers = 0;
    try {
      for (const m of this.models) await this.engine.models.deploy(m.source);
      this.crash?.arm();
      const queue: Stimulus[] = [];
      let world: WorldView | undefined;
      while (steps++ < MAX_STEPS) {
        const next = queue.shift() ?? this.startNow();
        if (next && this.executed.at(-1) !== next) this.executed.push(next);
        if (next && !(await this.apply(next))) queue.unshift(next);
        if (this.crashed) {
          await this.recover();
          // what the engine recorded before the crash is its job now, not the client's
          if (next && queue[0] === next && (await this.recorded(next))) queue.shift();
          // then the client looks before it sends anything, as it did after every stimulus: the
          // recovered engine settles first (a start sent into a recovery still under way could take
          // the slot a recovered process's subflow child took in the run without the crash)
        }
        world = await this.observe(false).catch((err) => (this.crashed ? undefined : Promise.reject(err)));
        if (!world || this.crashed) {
          await this.recover();
          // a tick's work cut off by the crash: the restarted engine ticks at that instant again
          // before the client looks (as its timer would), so due timeouts fire as they did
          if (next?.kind === 'time') {
            queue.unshift(next);
            continue;
          }
          // otherwise the client looks again before it sends anything
          world = await this.view(false);
        }
        if (!this.check(world)) break;
        if (queue.length > 0) continue;
        if (this.script.length > 0) {
          const scripted = this.fromScript(this.script.shift()!, world);
          if (scripted) queue.push(scripted);
          continue;
        }
        let decided = actor.decide(world, { now: this.clock.now(), nextTimeout: this.engine.nextTimeoutAt(), tickMs: TICK_MS });
        // overflowed executions of tasks closed meanwhile are closed by their replay, two ticks on
        if (!decided && leftovers++ < 3 && world.ops.some((op) => op.status !== 'done')) decided = { kind: 'time', to: this.clock.now() + 2 * TICK_MS + 1 };
        if (!decided) break;
        queue.push(decided);
      }
      if (this.violations.length === 0) {
        const final = await this.view(true);
        if (steps > MAX_STEPS) this.violations.push({ invariant: 'budget', detail: `the run did not end within ${MAX_STEPS} steps` });
        this.check(final);
        world = final;
      }
      return {
        seed: this.options.seed,
        violations: this.violations,
        processes: world?.procs.length ?? 0,
        actions: actor.actions,
        steps,
        crashes: this.crashes,
        writes: this.writes,
        migrations: this.migrations,
        digest: world ? digest(world) : [],
        raced: world ? racedFamilies(world) : [],
        limits: this.limits,
        models: this.models.map((m) => m.source),
        script: this.executed.map(toScriptStep),
      };
    } finally {
      await this.engine.close().catch(() => undefined);
      for (const store of this.opened) await store.close().catch(() => undefined);
      await this.database?.drop();
    }
  }
}

function describe(s: Stimulus): string {
  if (s.kind === 'start') return `start ${s.pid}`;
  if (s.kind === 'time') return `time → +${s.to - SIM_EPOCH}ms`;
  if (s.kind === 'deploy') return `deploy a version of ${s.mid}`;
  return `${s.action} ${s.proc}|${s.place} ${JSON.stringify(s.options)}`;
}

/**
 * A subflow child its caller no longer waited for: aborted (its calling act or process closed), or
 * called by an act that ended without taking its result. How far such a child got before the abort
 * reached it depends on how the lanes interleaved its jobs with its parent's, which a recovery
 * legitimately changes — even whether it started at all; crash equivalence leaves it out (the
 * invariants still hold it to ending).
 */
function cutOff(p: ProcView, world: WorldView): boolean {
  const { parent_pid: ppid, parent_tid: ptid } = p.row;
  if (!ppid || !ptid) return false;
  if (p.row.state === 'aborted') return true;
  const act = world.procs.find((q) => q.row.id === ppid)?.tasks.find((t) => t.tid === ptid);
  return !act || (act.state !== 'completed' && act.state !== 'error');
}

/**
 * Families (root names) that ran a subflow child, cut off or not: several processes, each on its
 * own lane, whose jobs interleave in an order the model leaves open (when a child returns, its
 * parent's other work may be anywhere). A family of one process runs its jobs in one FIFO order.
 * Crash equivalence accepts another order only for these (admissible.ts).
 */
function racedFamilies(world: WorldView): string[] {
  return [...new Set(world.procs.filter((p) => p.row.parent_pid).map((p) => rootOf(p.name)))].sort();
}

/** The final state, one line per process, with no generated id in it (crash equivalence). */
function digest(world: WorldView): string[] {
  return world.procs
    .filter((p) => !cutOff(p, world))
    .map((p) => {
      const byTid = new Map(p.tasks.map((t) => [t.tid, t]));
      const tasks = p.tasks.map((t) => `${placeOf(t, byTid)}=${t.state}`).sort();
      const outputs = JSON.stringify(p.row.state === 'completed' ? sortKeys(p.row.err ? {} : (p.tasks.find((t) => t.tid === '$')?.outputs ?? {})) : {});
      return `${p.name} ${p.row.mid} ${p.row.state} ecode=${p.row.err?.ecode ?? '-'} outputs=${outputs} tasks=[${tasks.join(' ')}]`;
    })
    .sort();
}

function sortKeys(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
}

/** Runs one seed and checks every invariant along the way. */
export function simulate(options: SimOptions): Promise<SimResult> {
  return new Simulation(options).run();
}
