/**
 * The model generator of the simulation: from a seed, random *valid* workflows that use every
 * construct the engine runs — steps with `if`, branches with `if`/`else`/`needs`/`run`, `next`
 * loops bounded by a counter, forward `next` jumps, nested block/parallel/sequence acts, subflows
 * (to models generated after this one, so calls never recurse), catches by ecode and catch-all,
 * timeout rules (some escalating their interrupt), setup chains and lifecycle hooks, and
 * set/code/msg/irq/action acts (some interrupts decided by votes: `quorum`).
 *
 * Loops stay finite whatever the client does: a backward `next` only sits at the end of a branch
 * whose `if` reads a counter and whose `run` increments it (`c1 < 2`, `$set('c1', c1 + 1)`), and
 * counters are workflow inputs, so every pass through the branch counts on the process root.
 */
import YAML from 'yaml';
import { modelFacts, type ModelFacts } from './model-facts.ts';
import type { Rng } from './rng.ts';

type Obj = Record<string, unknown>;

/** Error codes the models raise and catch; the client raises these and one nobody catches. */
export const ECODES = ['e1', 'e2', 'e3'] as const;
export const UNCAUGHT_ECODE = 'e9';
/** The outcomes every generated interrupt declares: one completes it, one raises a caught code, one a code nothing catches. */
export const SIM_OUTCOMES = { ok: null, no: { ecode: 'e1' }, stop: { label: 'Stop', ecode: UNCAUGHT_ECODE } } as const;
/** The quorum of the interrupts about QUORUM_VAR: two of the simulated voters (the actor's VOTERS) approve, one rejection rejects. */
export const SIM_QUORUM = { need: 2 } as const;
const QUORUM_VAR = 'v3';

export interface GeneratedModel extends ModelFacts {
  source: string;
}

export interface Scenario {
  models: GeneratedModel[];
  /** The model the simulation starts. */
  main: string;
}

/** Bounds of one model; small so a seed runs in milliseconds, varied so seeds differ in shape. */
interface Budget {
  nodes: number;
  depth: number;
}

const VARS = ['v1', 'v2', 'v3'];

class ModelBuilder {
  private readonly counts = new Map<string, number>();
  private readonly counters: string[] = [];
  private nodes = 0;

  constructor(
    private readonly rng: Rng,
    readonly id: string,
    private readonly callable: string[],
    private readonly budget: Budget,
  ) {}

  private nextId(prefix: string): string {
    const n = (this.counts.get(prefix) ?? 0) + 1;
    this.counts.set(prefix, n);
    this.nodes++;
    return `${prefix}${n}`;
  }

  private get spent(): boolean {
    return this.nodes >= this.budget.nodes;
  }

  build(): Obj {
    const rng = this.rng;
    const steps = this.stepList(0, rng.int(1, 3));
    const workflow: Obj = { id: this.id, name: `simulated ${this.id}` };
    const inputs: Obj = { v1: 0 };
    for (const c of this.counters) inputs[c] = 0;
    workflow.inputs = inputs;
    workflow.outputs = { v1: null, ...(rng.chance(0.5) ? { v2: null } : {}), ...(rng.chance(0.05) ? { v3: `{{ ${this.failingOr('v1 + 1')} }}` } : {}) };
    const setup = this.setupList(0, true);
    if (setup.length > 0) workflow.setup = setup;
    workflow.steps = steps;
    return workflow;
  }

  // ---- steps and branches ----

  /** A list of steps; the loop heads among them may be jumped back to from inside their branches. */
  private stepList(depth: number, count: number, enclosing: string[] = []): Obj[] {
    const list: Obj[] = [];
    for (let i = 0; i < count && (i === 0 || !this.spent); i++) {
      const visible = [...enclosing, ...list.map((s) => s.id as string)];
      list.push(this.step(depth, visible));
    }
    // a forward jump: an earlier step of this list continues with a later one
    if (list.length >= 3 && this.rng.chance(0.15)) {
      const from = this.rng.int(0, list.length - 3);
      if (!list[from].next) list[from].next = list[this.rng.int(from + 2, list.length - 1)].id;
    }
    return list;
  }

  /** One step; `visible` are step ids of this list and enclosing lists defined before it. */
  private step(depth: number, visible: string[]): Obj {
    const rng = this.rng;
    const id = this.nextId('s');
    const step: Obj = { id };
    if (rng.chance(0.15)) step.if = this.condition();
    const canNest = depth < this.budget.depth && !this.spent;
    if (canNest && rng.chance(0.22)) step.branches = this.loopBranches(depth, [...visible, id], id);
    else if (canNest && rng.chance(0.25)) step.branches = this.branches(depth, [...visible, id]);
    if (!step.branches || rng.chance(0.5)) step.acts = this.actChain(depth, rng.int(1, 3));
    this.rules(step, depth);
    if (rng.chance(0.12)) step.setup = this.setupList(depth, false);
    if (rng.chance(0.1)) step.outputs = { [rng.pick(VARS)]: rng.chance(0.3) ? `{{ ${this.failingOr('$get("v1")')} }}` : null };
    return step;
  }

  /**
   * A loop: the step's first branch runs while a counter is below its bound, counts, and its last
   * step jumps back to this step (or an earlier visible one); an optional `else` branch runs
   * when the counter is spent.
   */
  private loopBranches(depth: number, visible: string[], head: string): Obj[] {
    const rng = this.rng;
    const counter = `c${this.counters.length + 1}`;
    this.counters.push(counter);
    const body = this.stepList(depth + 1, rng.int(1, 2), visible);
    const target = rng.chance(0.75) ? head : rng.pick(visible);
    body[body.length - 1].next = target;
    const loop: Obj = { id: this.nextId('b'), if: `${counter} < ${rng.int(1, 3)}`, run: `$set('${counter}', ${counter} + 1)`, steps: body };
    const branches = [loop];
    if (rng.chance(0.6)) branches.push({ id: this.nextId('b'), else: true, steps: this.stepList(depth + 1, 1, visible) });
    if (rng.chance(0.25)) branches.reverse();
    return branches;
  }

  /** Parallel branches with `if`, `else` and `needs`. */
  private branches(depth: number, visible: string[]): Obj[] {
    const rng = this.rng;
    const list: Obj[] = [];
    const n = rng.int(1, 3);
    for (let i = 0; i < n; i++) {
      const branch: Obj = { id: this.nextId('b') };
      // a branch never needs an `else` branch: that is a cycle, refused at deploy
      const needable = list.filter((b) => !b.else);
      const kind = rng.weighted({ if: 5, else: 2, needs: needable.length > 0 ? 3 : 0, plain: 1 });
      if (kind === 'if') branch.if = this.condition();
      if (kind === 'else') branch.else = true;
      if (kind === 'needs') {
        branch.needs = [rng.pick(needable).id];
        if (rng.chance(0.5)) branch.if = this.condition();
      }
      if (rng.chance(0.1)) branch.run = `$set('v3', ($get('v3') ?? 0) + 1)`;
      branch.steps = this.stepList(depth + 1, rng.int(1, 2), visible);
      list.push(branch);
    }
    // an `else` or `needs` branch listed before the branches it waits for
    if (rng.chance(0.3)) list.reverse();
    return list;
  }

  /** A condition that is sometimes true, sometimes false, and now and then throws. */
  private condition(): string {
    const rng = this.rng;
    const v = rng.pick(VARS);
    return rng.pick([
      'true',
      'false',
      `($get('${v}') ?? 0) < ${rng.int(1, 3)}`,
      `($get('${v}') ?? 0) >= ${rng.int(1, 3)}`,
      `$get('${v}') === null`,
      rng.chance(0.3) ? 'no_such_var > 1' : 'true',
    ]);
  }

  /** An expression that sometimes throws (an unknown name) instead of `ok`. */
  private failingOr(ok: string): string {
    return this.rng.chance(0.4) ? 'no_such_var + 1' : ok;
  }

  // ---- acts ----

  private actChain(depth: number, count: number): Obj[] {
    const acts: Obj[] = [];
    for (let i = 0; i < count && (i === 0 || !this.spent); i++) acts.push(this.act(depth));
    return acts;
  }

  private act(depth: number, inBlock = false): Obj {
    const rng = this.rng;
    const canNest = depth < this.budget.depth && !this.spent && !inBlock;
    const kind = rng.weighted({
      irq: 6,
      set: 2,
      code: 2,
      msg: 1,
      action: 1,
      block: canNest ? 1 : 0,
      fanout: canNest ? 1 : 0,
      subflow: this.callable.length > 0 && !inBlock ? 1.5 : 0,
    });
    const id = this.nextId('a');
    const act: Obj = { id, ...this.actBody(kind, depth) };
    if (rng.chance(0.1)) act.if = this.condition();
    if (!inBlock) {
      this.rules(act, depth);
      if (rng.chance(0.08)) act.setup = this.setupList(depth, false);
    }
    return act;
  }

  private actBody(kind: string, depth: number): Obj {
    const rng = this.rng;
    const v = rng.pick(VARS);
    switch (kind) {
      case 'irq': {
        // every interrupt declares outcomes, and one about its variable v3 is decided by votes
        // (no draw of the stream: models stay as they were but for these)
        const params: Obj = { title: `value {{ $get('${v}') }}`, outcomes: structuredClone(SIM_OUTCOMES), ...(v === QUORUM_VAR ? { quorum: structuredClone(SIM_QUORUM) } : {}) };
        const body: Obj = { uses: 'acts.core.irq', params };
        if (rng.chance(0.3)) body.outputs = { [rng.pick(VARS)]: null };
        return body;
      }
      case 'set':
        return { uses: 'acts.transform.set', params: { [v]: rng.chance(0.5) ? rng.int(0, 3) : `{{ ($get('${v}') ?? 0) + 1 }}` } };
      case 'code':
        return {
          uses: 'acts.transform.code',
          params: rng.chance(0.15) ? `throw new Error('generated failure')` : `return { ${v}: ($get('${v}') ?? 0) + ${rng.int(1, 2)} }`,
        };
      case 'msg':
        return { uses: 'acts.core.msg', params: { text: `note {{ $get('${v}') }}` } };
      case 'action': {
        const action = rng.weighted({ error: 4, complete: 1, skip: 1, submit: 1 });
        return { uses: 'acts.core.action', params: { action, options: action === 'error' ? { ecode: rng.pick([...ECODES, UNCAUGHT_ECODE]) } : {} } };
      }
      case 'block':
        return { uses: 'acts.core.block', params: { mode: rng.pick(['sequence', 'parallel']), acts: this.blockActs(depth) } };
      case 'fanout':
        return {
          uses: rng.pick(['acts.core.parallel', 'acts.core.sequence']),
          params: { in: rng.chance(0.5) ? [1, 2] : `{{ [${Array.from({ length: rng.int(0, 3) }, (_, i) => i).join(', ')}] }}`, acts: this.blockActs(depth) },
        };
      case 'subflow':
        return { uses: 'acts.core.subflow', params: { to: rng.pick(this.callable), options: { v1: rng.int(0, 3) } } };
      default:
        throw new Error(`unknown act kind ${kind}`);
    }
  }

  /** Acts inside a block or fan-out: plain definitions (the engine builds them at run time). */
  private blockActs(depth: number): Obj[] {
    return Array.from({ length: this.rng.int(1, 2) }, () => this.act(depth + 1, true));
  }

  // ---- catches, timeouts, setup ----

  private rules(node: Obj, depth: number): void {
    const rng = this.rng;
    if (rng.chance(0.2)) {
      const catches: Obj[] = [];
      if (rng.chance(0.7)) catches.push({ on: rng.pick(ECODES), steps: this.handlerSteps(depth) });
      if (rng.chance(0.5)) catches.push({ steps: this.handlerSteps(depth) });
      if (catches.length > 0) node.catches = catches;
    }
    if (rng.chance(0.15)) node.timeout = [{ on: `${rng.int(1, 60)}s`, steps: this.handlerSteps(depth) }];
  }

  /** The steps of a catch or timeout rule: none (ignore), or one small step. */
  private handlerSteps(depth: number): Obj[] {
    const rng = this.rng;
    if (rng.chance(0.25) || this.spent) return [];
    const id = this.nextId('s');
    const act = rng.chance(0.3)
      ? { id: this.nextId('a'), uses: 'acts.core.action', params: { action: 'error', options: { ecode: rng.pick([...ECODES, UNCAUGHT_ECODE]) } } }
      : rng.chance(0.2)
        ? { id: this.nextId('a'), uses: 'acts.core.escalate', params: rng.chance(0.5) ? { priority: rng.int(0, 99) } : { candidate_users: ['sim'], reason: 'late' } }
        : this.act(depth + 1, true);
    return [{ id, acts: [act] }];
  }

  /** Setup acts: a plain chain beside the owner's children and/or lifecycle hooks. */
  private setupList(depth: number, root: boolean): Obj[] {
    const rng = this.rng;
    const list: Obj[] = [];
    if (rng.chance(root ? 0.3 : 0.5)) {
      const events = ['created', 'completed', 'before_update', 'updated', 'step'];
      const hook = rng.chance(0.25) ? { uses: 'acts.core.irq' } : rng.chance(0.5) ? { uses: 'acts.core.msg', params: { text: 'hook' } } : { uses: 'acts.transform.set', params: { v3: 1 } };
      list.push({ id: this.nextId('a'), on: rng.pick(events), ...hook });
    }
    if (rng.chance(root ? 0.15 : 0.3)) list.push(this.act(depth + 1, true));
    return list;
  }
}

/** The models of one seed: a main model and up to two it may call (each calls only later ones). */
export function generateScenario(rng: Rng): Scenario {
  const count = rng.weighted({ one: 5, two: 3, three: 2 });
  const n = count === 'one' ? 1 : count === 'two' ? 2 : 3;
  const ids = Array.from({ length: n }, (_, i) => `m${i}`);
  const models: GeneratedModel[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const budget: Budget = i === 0 ? { nodes: rng.int(8, 36), depth: rng.int(1, 3) } : { nodes: rng.int(3, 10), depth: rng.int(0, 2) };
    const builder = new ModelBuilder(rng, ids[i], ids.slice(i + 1), budget);
    const workflow = builder.build();
    const source = YAML.stringify(workflow);
    models.unshift({ ...modelFacts(source), source });
  }
  return { models, main: ids[0] };
}
