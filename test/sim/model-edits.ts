/**
 * Second versions of generated models (issue 16: migration of running processes): from a model's
 * source, a random valid edit and the migration plan that goes with it. An edit is one to three
 * changes of the workflow document: a step, branch or act renamed (the plan maps it), a step with
 * an interrupt added at the end of a step list or between two steps, an act's params or outputs
 * changed, an act or step that no `next` or `needs` names removed (the plan cancels a removed act
 * now and then, else blocks on it). Acts inside block and fan-out params are data, not nodes, and
 * stay as they are. The engine's own loader checks the result; an invalid edit is drawn again.
 */
import YAML from 'yaml';
import { loadModel, seededIds } from '../../server/engine/model/index.ts';
import type { MigrationPlan } from '../../vocab/migration.ts';
import { SIM_OUTCOMES } from './generate.ts';
import { modelFacts, type ModelFacts } from './model-facts.ts';
import type { Rng } from './rng.ts';

type Obj = Record<string, unknown>;

export interface ModelEdit {
  mid: string;
  /** The second version's source and what the client knows of it. */
  source: string;
  facts: ModelFacts;
  /** The plan from the first version to this one (its `ver` is known once deployed). */
  plan: Required<Omit<MigrationPlan, 'ver'>>;
  /** What changed, for the trace. */
  what: string[];
}

/** A node of the document, with the list that holds it. */
interface Entry {
  kind: 'step' | 'branch' | 'act';
  node: Obj;
  list: Obj[];
}

const list = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);

/** Every step, branch and act of the document (not the acts in package params), and every step list. */
function entries(workflow: Obj): { nodes: Entry[]; stepLists: Obj[][] } {
  const nodes: Entry[] = [];
  const stepLists: Obj[][] = [];
  const rules = (owner: Obj) => {
    for (const rule of [...list(owner.catches), ...list(owner.timeout)]) steps(list(rule.steps));
  };
  const acts = (chain: Obj[]) => {
    for (const act of chain) {
      nodes.push({ kind: 'act', node: act, list: chain });
      acts(list(act.setup));
      rules(act);
    }
  };
  const steps = (chain: Obj[]) => {
    if (chain.length > 0) stepLists.push(chain);
    for (const step of chain) {
      nodes.push({ kind: 'step', node: step, list: chain });
      acts(list(step.setup));
      acts(list(step.acts));
      for (const branch of list(step.branches)) {
        nodes.push({ kind: 'branch', node: branch, list: list(step.branches) });
        steps(list(branch.steps));
      }
      rules(step);
    }
  };
  acts(list(workflow.setup));
  steps(list(workflow.steps));
  return { nodes, stepLists };
}

/** Every object of the document, params included (ids must stay unique across all of them). */
function everyObject(value: unknown, out: Obj[] = []): Obj[] {
  if (Array.isArray(value)) for (const v of value) everyObject(v, out);
  else if (value && typeof value === 'object') {
    out.push(value as Obj);
    for (const v of Object.values(value)) everyObject(v, out);
  }
  return out;
}

class Editor {
  readonly plan: ModelEdit['plan'] = { map: {}, removed: {} };
  readonly what: string[] = [];
  private readonly original: Set<string>;

  constructor(
    private readonly rng: Rng,
    readonly workflow: Obj,
  ) {
    this.original = new Set(entries(workflow).nodes.map((e) => e.node.id as string));
  }

  /** An id no object of the document has, with the prefix the client's places know (`s`, `b`, `a`). */
  private freshId(prefix: string): string {
    let max = 0;
    for (const o of everyObject(this.workflow)) {
      const n = typeof o.id === 'string' ? Number(/^[a-z]+(\d+)$/.exec(o.id)?.[1] ?? 0) : 0;
      max = Math.max(max, n);
    }
    return `${prefix}${max + 1}`;
  }

  /** The ids `next` and `needs` name anywhere. */
  private referenced(): Set<string> {
    const out = new Set<string>();
    for (const o of everyObject(this.workflow)) {
      if (typeof o.next === 'string') out.add(o.next);
      for (const n of Array.isArray(o.needs) ? o.needs : []) out.add(String(n));
    }
    return out;
  }

  /** The source id that is `id` now (renamed before), or null for a node this edit added. */
  private sourceOf(id: string): string | null {
    const renamed = Object.entries(this.plan.map).find(([, to]) => to === id)?.[0];
    if (renamed) return renamed;
    return this.original.has(id) ? id : null;
  }

  /** Applies one random change; false when the drawn change does not apply to this model. */
  change(): boolean {
    const kind = this.rng.weighted({ rename: 4, add: 3, params: 3, remove: 3 });
    const { nodes, stepLists } = entries(this.workflow);
    if (kind === 'add') return this.addStep(this.rng.pick(stepLists));
    if (kind === 'rename') return this.rename(this.rng.pick(nodes));
    if (kind === 'params') return this.changeAct(this.rng.pick(nodes));
    return this.remove(this.rng.pick(nodes));
  }

  private rename(entry: Entry): boolean {
    const from = entry.node.id as string;
    const to = this.freshId(from[0]);
    for (const o of everyObject(this.workflow)) {
      if (o.next === from) o.next = to;
      if (Array.isArray(o.needs)) o.needs = o.needs.map((n) => (n === from ? to : n));
    }
    entry.node.id = to;
    const source = this.sourceOf(from);
    if (source) this.plan.map[source] = to;
    this.what.push(`renamed ${entry.kind} ${from} to ${to}`);
    return true;
  }

  private addStep(steps: Obj[]): boolean {
    const id = this.freshId('s');
    const act = { id: `a${Number(id.slice(1)) + 1}`, uses: 'acts.core.irq', params: { title: 'added', outcomes: structuredClone(SIM_OUTCOMES) } };
    const at = this.rng.int(0, steps.length);
    steps.splice(at, 0, { id, acts: [act] });
    this.what.push(`added step ${id} at ${at} of ${steps.length}`);
    return true;
  }

  private changeAct(entry: Entry): boolean {
    const act = entry.node;
    if (entry.kind !== 'act' || act.on) return false;
    const params = act.params as Obj | string | undefined;
    if (act.uses === 'acts.core.irq') {
      if (this.rng.chance(0.5)) act.outputs = act.outputs ? undefined : { [this.rng.pick(['v1', 'v2', 'v3'])]: null };
      else (params as Obj).title = `changed {{ $get('v2') }}`;
    } else if (act.uses === 'acts.transform.set') act.params = { v1: this.rng.int(0, 3) };
    else if (act.uses === 'acts.core.msg') act.params = { text: 'changed' };
    else if (act.uses === 'acts.transform.code' && typeof params === 'string') act.params = params.replace(/\+ (\d)/, (_, n) => `+ ${Number(n) + 1}`);
    else return false;
    if (act.outputs === undefined) delete act.outputs;
    this.what.push(`changed act ${act.id as string}`);
    return true;
  }

  /** Removes a node no `next` or `needs` names (nor any node inside it); a chain keeps one entry. */
  private remove(entry: Entry): boolean {
    if (entry.list.length < 2) return false;
    const inside = subtree(entry);
    const referenced = this.referenced();
    if (inside.some((id) => referenced.has(id))) return false;
    entry.list.splice(entry.list.indexOf(entry.node), 1);
    for (const id of inside) {
      const source = this.sourceOf(id);
      if (!source) continue;
      delete this.plan.map[source];
      // a removed act's live task: skipped and its flow goes on (cancel), or the process stays (block)
      if (id === entry.node.id && entry.kind === 'act') this.plan.removed[source] = this.rng.chance(0.5) ? 'cancel' : 'block';
    }
    this.what.push(`removed ${entry.kind} ${entry.node.id as string}`);
    return true;
  }
}

/** The ids of a node and of every node inside it. */
function subtree(entry: Entry): string[] {
  const doc = entry.kind === 'step' ? { steps: [entry.node] } : entry.kind === 'act' ? { setup: [entry.node] } : { steps: [{ branches: [entry.node] }] };
  return entries(doc)
    .nodes.map((e) => e.node.id)
    .filter((id): id is string => typeof id === 'string');
}

/** Whether the engine would deploy this source: its loader's structure checks. */
function valid(source: string): boolean {
  const { workflow, problems } = loadModel(source, {}, { newId: seededIds(source) });
  return workflow !== undefined && problems.length === 0;
}

/** A valid second version of `source` and its plan, or null when no drawn edit was valid. */
export function editModel(source: string, rng: Rng): ModelEdit | null {
  for (let attempt = 0; attempt < 8; attempt++) {
    const editor = new Editor(rng, YAML.parse(source) as Obj);
    const changes = rng.int(1, 3);
    for (let i = 0; i < changes * 3 && editor.what.length < changes; i++) editor.change();
    const edited = YAML.stringify(editor.workflow);
    if (editor.what.length === 0 || edited === source || !valid(edited)) continue;
    const facts = modelFacts(edited);
    return { mid: facts.id, source: edited, facts, plan: editor.plan, what: editor.what };
  }
  return null;
}
