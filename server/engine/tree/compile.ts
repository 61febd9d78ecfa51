/**
 * Compiles a validated workflow into its node tree (spec 1.6 with section 0):
 * - each list of steps/acts is a chain (`next` = following item);
 * - a step's explicit `next` overrides its list successor and may target any step of the model;
 * - every catch and timeout rule gets its own chain (section 0.2);
 * - setup acts with `on` become hook rules, the others a chain started with the owner's children.
 */
import type { Act, Catch, Step, Timeout, Workflow } from '../model/types.ts';
import { parseDuration } from '../model/duration.ts';
import type { CatchRule, Node, NodeContent, NodeKind, TimeoutRule } from './node.ts';

export interface NodeTree {
  root: Node;
  /** Nodes by id (the first of a duplicated id wins; validation rejects duplicates in models). */
  nodes: Map<string, Node>;
}

function makeNode(kind: NodeKind, content: NodeContent, parent: Node | null, origin: string | null): Node {
  return {
    id: content.id,
    kind,
    level: parent ? parent.level + 1 : 0,
    content,
    parent,
    next: null,
    heads: [],
    hooks: [],
    catches: [],
    timeouts: [],
    origin,
  };
}

class Builder {
  readonly nodes = new Map<string, Node>();
  private readonly explicitNext: Array<{ node: Node; target: string }> = [];

  constructor(private readonly origin: string | null) {}

  register(node: Node): Node {
    if (!this.nodes.has(node.id)) this.nodes.set(node.id, node);
    return node;
  }

  chain<T>(items: T[], build: (item: T) => Node): Node | null {
    let head: Node | null = null;
    let prev: Node | null = null;
    for (const item of items) {
      const node = build(item);
      if (prev && !prev.next) prev.next = node;
      if (!head) head = node;
      prev = node;
    }
    return head;
  }

  steps(steps: Step[], parent: Node): Node | null {
    return this.chain(steps, (s) => this.step(s, parent));
  }

  step(step: Step, parent: Node): Node {
    const node = this.register(makeNode('step', step, parent, this.origin));
    if (step.next) this.explicitNext.push({ node, target: step.next });
    for (const branch of step.branches) {
      const b = this.register(makeNode('branch', branch, node, this.origin));
      const first = this.steps(branch.steps, b);
      if (first) b.heads.push(first);
      node.heads.push(b);
    }
    const firstAct = this.acts(step.acts, node);
    if (firstAct) node.heads.push(firstAct);
    this.setup(step.setup, node);
    this.rules(step.catches, step.timeout, node);
    return node;
  }

  acts(acts: Act[], parent: Node): Node | null {
    return this.chain(acts, (a) => this.act(a, parent));
  }

  act(act: Act, parent: Node): Node {
    const node = this.register(makeNode('act', act, parent, this.origin));
    this.setup(act.setup, node);
    this.rules(act.catches, act.timeout, node);
    return node;
  }

  setup(acts: Act[], owner: Node): void {
    const plain: Act[] = [];
    for (const act of acts) {
      if (act.on) owner.hooks.push({ event: act.on, act: this.act(act, owner) });
      else plain.push(act);
    }
    const head = this.acts(plain, owner);
    if (head) owner.heads.push(head);
  }

  rules(catches: Catch[], timeouts: Timeout[], owner: Node): void {
    owner.catches = catches.map((c): CatchRule => ({ on: c.on ?? undefined, head: this.steps(c.steps, owner) }));
    owner.timeouts = timeouts.map(
      (t): TimeoutRule => ({ on: t.on, ms: parseDuration(t.on) ?? Number.NaN, head: this.steps(t.steps, owner) }),
    );
  }

  /** Resolves explicit `next` targets once every node exists (forward references allowed). */
  link(): void {
    for (const { node, target } of this.explicitNext) {
      const to = this.nodes.get(target);
      if (to && to.kind === 'step') node.next = to;
    }
  }
}

export function compileWorkflow(workflow: Workflow): NodeTree {
  const builder = new Builder(null);
  const root = builder.register(makeNode('workflow', workflow, null, null));
  const first = builder.steps(workflow.steps, root);
  if (first) root.heads.push(first);
  builder.setup(workflow.setup, root);
  builder.link();
  return { root, nodes: builder.nodes };
}

export interface DynamicNodes {
  /** The nodes started together: one chain head (sequence) or one node per act (parallel). */
  heads: Node[];
  nodes: Map<string, Node>;
}

/**
 * Builds run-time act nodes under `parent` for the task `origin` (block expansion, pushed acts):
 * `sequence` chains the acts, `parallel` makes each its own head.
 */
export function compileDynamic(acts: Act[], parent: Node, mode: 'sequence' | 'parallel', origin: string): DynamicNodes {
  const builder = new Builder(origin);
  const heads = mode === 'sequence' ? [builder.acts(acts, parent)].filter((n): n is Node => n !== null) : acts.map((a) => builder.act(a, parent));
  return { heads, nodes: builder.nodes };
}
