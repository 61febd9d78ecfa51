/**
 * The simulated client: from its own seeded stream it answers open interrupts with random
 * actions — complete with and without the outputs contract, error with caught and uncaught
 * codes, a declared outcome (or one not declared), back to earlier and enclosing steps, cancel,
 * skip, submit, remove, abort, push and set-vars; votes of simulated people on an act decided by
 * votes (now and then one who voted already) — and lets virtual time pass so timeout rules fire.
 * From a second stream (`ctl`) it controls processes: pauses and resumes them, steps over, sets
 * breakpoints on steps, and retries or fails incidents; draining resumes every paused process and
 * resolves every incident first. From a third (migrator.ts) it deploys second versions of models
 * and migrates running processes to them; what it knows of a model is read from the version each
 * process runs.
 *
 * Its choices depend only on its stream and on what the world looks like (tasks named by their
 * place in the model, never by generated ids), so a run that crashed and recovered makes the same
 * choices as one that did not. States: exploring (up to `maxActions` actions) → draining
 * (completing what is open) → aborting the processes still unfinished.
 */
import type { TaskInfo } from '../../server/runtime/info.ts';
import type { Vars } from '../../server/engine/model/types.ts';
import { MIGRATE_ACTION } from '../../vocab/migration.ts';
import { quorumOf, VOTE_ACTION, VOTER_OPTION, votesOf } from '../../vocab/quorum.ts';
import { ECODES, SIM_OUTCOMES, UNCAUGHT_ECODE, type GeneratedModel } from './generate.ts';
import { isTerminalState, type ProcView, type WorldView } from './invariants.ts';
import { factsOf, NAMED, type ModelFacts } from './model-facts.ts';
import type { Migrator } from './migrator.ts';
import type { Rng } from './rng.ts';

export type Stimulus =
  | { kind: 'start'; pid: string; mid: string; inputs: Vars }
  | {
      kind: 'action';
      pid: string;
      tid: string;
      action: string;
      options: Vars;
      /** Where the target sits, without generated ids: the process's name and the task's place. */
      proc: string;
      place: string;
      /** The target's state when the client chose it. */
      state: string;
    }
  | { kind: 'time'; to: number }
  /** Deploys another version of a model (it becomes the latest). */
  | { kind: 'deploy'; mid: string; source: string };

/** What the actor sees beyond the world view: the clock and when something falls due. */
export interface Clockwork {
  now: number;
  /** The earliest armed timeout, or null. */
  nextTimeout: number | null;
  tickMs: number;
}

const DRAIN_STEPS = 80;
/** The simulated people who vote on acts decided by votes. */
const VOTERS = ['u1', 'u2', 'u3'];

interface Open {
  proc: ProcView;
  task: TaskInfo;
  place: string;
}

/** A task's place in the model: the node ids from the root down, with fan-out indexes. */
export function placeOf(task: TaskInfo, byTid: Map<string, TaskInfo>): string {
  const parts: string[] = [];
  for (let t: TaskInfo | undefined = task; t; t = t.parent ? byTid.get(t.parent) : undefined) {
    const index = t.data.$index;
    const nid = NAMED.test(t.nid) ? t.nid : '*';
    parts.push(typeof index === 'number' ? `${nid}[${index}]` : nid);
  }
  return parts.reverse().join('/');
}

function byPlace(a: Open, b: Open): number {
  const ka = `${a.proc.name}|${a.place}`;
  const kb = `${b.proc.name}|${b.place}`;
  return ka < kb ? -1 : ka > kb ? 1 : a.task.start_time - b.task.start_time;
}

export class Actor {
  actions = 0;
  private drained = 0;
  private pushes = 0;

  constructor(
    private readonly rng: Rng,
    private readonly models: Map<string, GeneratedModel>,
    private readonly maxActions: number,
    /** Draws for process control (absent: the actor never controls a process). */
    private readonly ctl?: Rng,
    /** Deploys and migrations (absent: the actor never migrates a process). */
    private readonly migrator?: Migrator,
  ) {}

  /** What the actor knows of the model version a process runs. */
  private facts(proc: ProcView): ModelFacts | undefined {
    return proc.row.model ? factsOf(proc.row.model) : this.models.get(proc.row.mid);
  }

  get mode(): 'explore' | 'drain' | 'abort' {
    if (this.actions < this.maxActions) return 'explore';
    return this.drained < DRAIN_STEPS ? 'drain' : 'abort';
  }

  /** The next stimulus, or null when every process finished. */
  decide(world: WorldView, clock: Clockwork): Stimulus | null {
    const running = world.procs.filter((p) => !isTerminalState(p.row.state));
    if (running.length === 0) return null;
    const open = this.openTasks(running, (t) => t.state === 'interrupted');
    const due = this.nextDue(world, clock);
    const mode = this.mode;
    if (mode !== 'explore') this.drained++;
    if (mode === 'abort') return this.abortOne(running);
    const migration = mode === 'explore' ? this.migration(running, world) : null;
    if (migration) return migration;
    const control = this.control(running, mode === 'explore');
    if (control) return control;
    if (open.length === 0 || (due !== null && this.rng.chance(mode === 'explore' ? 0.12 : 0.05))) {
      if (due !== null) return { kind: 'time', to: due };
      return this.abortOne(running);
    }
    const target = this.rng.pick(open);
    this.actions++;
    return mode === 'explore' ? this.explore(target, running) : this.complete(target);
  }

  /** When time should move to next: the earliest timeout, or an overflow record's replay. */
  private nextDue(world: WorldView, clock: Clockwork): number | null {
    let due = clock.nextTimeout;
    for (const op of world.ops) {
      if (op.status === 'done' || op.type !== 'exec') continue;
      const at = op.update_time + 2 * clock.tickMs;
      if (due === null || at < due) due = at;
    }
    return due === null ? null : Math.max(due, clock.now + clock.tickMs);
  }

  private openTasks(procs: ProcView[], which: (t: TaskInfo) => boolean): Open[] {
    const out: Open[] = [];
    for (const proc of procs) {
      const byTid = new Map(proc.tasks.map((t) => [t.tid, t]));
      for (const task of proc.tasks) if (which(task)) out.push({ proc, task, place: placeOf(task, byTid) });
    }
    return out.sort(byPlace);
  }

  /**
   * A control action, or null: an open incident is retried or failed (always when draining),
   * a paused process resumed or stepped over (always resumed when draining); while exploring,
   * now and then a process is paused or its breakpoints are set to some of its model's steps.
   */
  private control(running: ProcView[], exploring: boolean): Stimulus | null {
    const ctl = this.ctl;
    if (!ctl) return null;
    const byName = [...running].sort((a, b) => (a.name < b.name ? -1 : 1));
    const incident = byName.find((p) => (p.row.control?.incidents.length ?? 0) > 0);
    if (incident && (!exploring || ctl.chance(0.5))) {
      const tid = incident.row.control!.incidents[0].tid;
      return this.onRoot(incident, ctl.chance(exploring ? 0.6 : 0.3) ? 'retry' : 'fail', { tid });
    }
    const paused = byName.find((p) => p.row.control?.paused);
    if (paused && (!exploring || ctl.chance(0.3))) return this.onRoot(paused, exploring && ctl.chance(0.5) ? 'step_over' : 'resume');
    if (!exploring) return null;
    const proc = byName.length > 0 ? ctl.pick(byName) : undefined;
    if (!proc || proc.row.state === 'none') return null;
    if (ctl.chance(0.03) && !proc.row.control?.paused) return this.onRoot(proc, 'pause');
    if (ctl.chance(0.03)) {
      const steps = this.facts(proc)?.steps ?? [];
      const nodes = steps.filter(() => ctl.chance(0.3));
      return this.onRoot(proc, 'set_breakpoints', { nodes });
    }
    return null;
  }

  private migration(running: ProcView[], world: WorldView): Stimulus | null {
    const move = this.migrator?.next([...running].sort((a, b) => (a.name < b.name ? -1 : 1)), world.models);
    if (!move) return null;
    if ('migrate' in move) return this.onRoot(move.migrate, MIGRATE_ACTION, move.plan);
    this.actions++;
    return { kind: 'deploy', mid: move.deploy.mid, source: move.deploy.source };
  }

  private onRoot(proc: ProcView, action: string, options: Vars = {}): Stimulus {
    this.actions++;
    return { kind: 'action', pid: proc.row.id, tid: '$', action, options, proc: proc.name, place: proc.row.mid, state: proc.row.state };
  }

  private abortOne(running: ProcView[]): Stimulus {
    const roots = running.filter((p) => !p.row.parent_pid).sort((a, b) => (a.name < b.name ? -1 : 1));
    const proc = roots[0] ?? running[0];
    this.actions++;
    return { kind: 'action', pid: proc.row.id, tid: '$', action: 'abort', options: {}, proc: proc.name, place: proc.row.mid, state: proc.row.state };
  }

  private act(o: Open, action: string, options: Vars = {}): Stimulus {
    return { kind: 'action', pid: o.proc.row.id, tid: o.task.tid, action, options, proc: o.proc.name, place: o.place, state: o.task.state };
  }

  /** Options that satisfy the act's declared outputs (or not, when `keep` is false). */
  private answer(o: Open, keep = true): Vars {
    const options: Vars = {};
    if (keep) for (const key of Object.keys(this.declaredOutputs(o))) options[key] = this.rng.int(0, 3);
    if (this.rng.chance(0.5)) options[this.rng.pick(['v1', 'v2', 'v3'])] = this.rng.int(0, 3);
    return options;
  }

  private declaredOutputs(o: Open): Vars {
    return this.facts(o.proc)?.outputs.get(o.task.nid) ?? {};
  }

  /** Completes the act; one decided by votes gets the approval of a voter who has not voted. */
  private complete(o: Open): Stimulus {
    if (quorumOf(o.task.params)) {
      const voted = new Set(votesOf(o.task.data).map((v) => v.user));
      return this.vote(o, VOTERS.find((u) => !voted.has(u)) ?? 'u-late', 'approve');
    }
    return this.act(o, 'complete', this.answer(o));
  }

  private vote(o: Open, user: string, decision: 'approve' | 'reject'): Stimulus {
    return this.act(o, VOTE_ACTION, { decision, [VOTER_OPTION]: { name: user, id: `id-${user}` } });
  }

  private explore(o: Open, running: ProcView[]): Stimulus {
    const rng = this.rng;
    // an act decided by votes mostly gets a vote (a voter may vote twice: refused); else any action
    if (quorumOf(o.task.params) && rng.chance(0.7)) return this.vote(o, rng.pick(VOTERS), rng.chance(0.85) ? 'approve' : 'reject');
    const choice = rng.weighted({
      complete: 40,
      contractless: 5,
      error: 12,
      back: 10,
      skip: 6,
      submit: 5,
      remove: 4,
      setVars: 5,
      cancel: 6,
      push: 4,
      abort: 1.5,
      outcome: 8,
    });
    switch (choice) {
      case 'complete':
        return this.complete(o);
      case 'contractless':
        return this.act(o, 'complete', this.answer(o, false));
      case 'error':
        return this.act(o, 'error', { ecode: rng.pick([...ECODES, UNCAUGHT_ECODE]) });
      case 'back':
        return this.act(o, 'back', { to: this.backTarget(o) });
      case 'setVars':
        return this.act(o, 'set-vars', { [rng.pick(['v1', 'v2', 'v3'])]: rng.int(0, 3) });
      case 'cancel':
        return this.cancel(running) ?? this.complete(o);
      case 'push':
        return this.push(running) ?? this.complete(o);
      case 'outcome':
        return this.outcome(o);
      default:
        return this.act(o, choice, choice === 'abort' || choice === 'skip' ? {} : this.answer(o));
    }
  }

  /** A declared outcome (pushed and hook interrupts declare none: refused), now and then one no act declares. */
  private outcome(o: Open): Stimulus {
    const outcome = this.rng.chance(0.1) ? 'maybe' : this.rng.pick(Object.keys(SIM_OUTCOMES));
    return this.act(o, 'outcome', { ...this.answer(o), outcome });
  }

  /** Mostly a step on the path that led here (earlier or enclosing), sometimes any step. */
  private backTarget(o: Open): string {
    const byTid = new Map(o.proc.tasks.map((t) => [t.tid, t]));
    const path: string[] = [];
    for (let t = o.task.prev ? byTid.get(o.task.prev) : undefined; t; t = t.prev ? byTid.get(t.prev) : undefined) {
      if (t.kind === 'step' && !path.includes(t.nid)) path.push(t.nid);
    }
    const all = this.facts(o.proc)?.steps ?? [];
    if (path.length > 0 && this.rng.chance(0.8)) return this.rng.pick(path);
    return all.length > 0 ? this.rng.pick(all) : 'nowhere';
  }

  private cancel(running: ProcView[]): Stimulus | null {
    const done = this.openTasks(running, (t) => t.kind === 'act' && t.state === 'completed' && !t.hook);
    if (done.length === 0) return null;
    return this.act(this.rng.pick(done), 'cancel');
  }

  private push(running: ProcView[]): Stimulus | null {
    const steps = this.openTasks(running, (t) => t.kind === 'step' && t.state === 'running');
    if (steps.length === 0) return null;
    const step = this.rng.pick(steps);
    const id = `pushed${++this.pushes}`;
    const uses = this.rng.pick(['acts.core.irq', 'acts.core.msg', 'acts.transform.set']);
    const params = uses === 'acts.transform.set' ? { v2: this.rng.int(0, 3) } : { text: 'pushed' };
    return this.act(step, 'push', { uses, id, params });
  }
}
