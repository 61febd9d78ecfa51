/**
 * The edges of the designer graph, following how the engine builds its node tree (spec 1.6):
 * steps of a list are chained; a step fans out to its act chain, its setup chain and its branches
 * (which start together), and the ends of those chains ("exits") flow into the step's successor —
 * from a branch as a `join` edge. A step's `next` replaces its successor with a `next` edge from
 * its exits. Catch and timeout rules, hooks and triggers hang off their owner.
 */
import { childrenIn, type Element } from './elements.ts';
import { nodeKindOf } from './graph-nodes.ts';
import { END_NODE_ID, type EdgeKind, type GraphEdge } from '../graph.ts';
import { flagField, textField, textListField } from './yaml-values.ts';

/** The end of a chain; `join` when it comes out of a branch. */
interface Exit {
  node: string;
  join: boolean;
}

interface Jump {
  step: Element;
  exits: Exit[];
  target: string;
}

const exitOf = (element: Element): Exit[] => [{ node: element.nodeId, join: false }];

function branchLabel(branch: Element): string | undefined {
  const parts: string[] = [];
  const needs = textListField(branch.map, 'needs');
  if (needs.length) parts.push(`needs ${needs.join(', ')}`);
  const condition = textField(branch.map, 'if');
  if (condition !== undefined) parts.push(`if ${condition}`);
  if (flagField(branch.map, 'else')) parts.push('else');
  return parts.length ? parts.join(' · ') : undefined;
}

export function buildEdges(elements: readonly Element[]): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const jumps: Jump[] = [];

  const add = (kind: EdgeKind, source: string, target: string, label?: string, back?: boolean) => {
    const id = `${kind}:${source}->${target}`;
    if (seen.has(id)) return;
    seen.add(id);
    const edge: GraphEdge = { id, kind, source, target };
    if (label !== undefined) edge.label = label;
    if (back !== undefined) edge.back = back;
    edges.push(edge);
  };
  const connect = (from: Exit[], target: string, kind?: EdgeKind) => {
    for (const exit of from) add(kind ?? (exit.join ? 'join' : 'flow'), exit.node, target);
  };

  const chainActs = (acts: Element[], from: Exit[], firstKind?: EdgeKind): Exit[] => {
    let prev = from;
    acts.forEach((act, i) => {
      connect(prev, act.nodeId, i === 0 ? firstKind : undefined);
      attachToAct(act);
      prev = exitOf(act);
    });
    return prev;
  };

  /** Hooks hang off the owner; the other setup acts form a chain; returns the chain's exits. */
  const attachSetup = (owner: Element): Exit[] => {
    const setup = childrenIn(owner, 'setup');
    const chain = setup.filter((act) => nodeKindOf(act) !== 'hook');
    for (const hook of setup.filter((act) => nodeKindOf(act) === 'hook')) {
      add('hook', owner.nodeId, hook.nodeId, textField(hook.map, 'on'));
      attachToAct(hook);
    }
    return chain.length ? chainActs(chain, exitOf(owner), 'setup') : [];
  };

  const attachRules = (owner: Element) => {
    for (const rule of [...childrenIn(owner, 'catches'), ...childrenIn(owner, 'timeout')]) {
      const on = textField(rule.map, 'on');
      const label = rule.kind === 'catch' ? (on === undefined ? 'any error' : on || "''") : on;
      add(rule.kind === 'catch' ? 'catch' : 'timeout', owner.nodeId, rule.nodeId, label);
      chainSteps(childrenIn(rule, 'steps'), exitOf(rule));
    }
  };

  const attachToAct = (act: Element) => {
    attachSetup(act);
    attachRules(act);
  };

  /** Lays out one step and returns the exits through which it finishes. */
  const stepFlow = (step: Element): Exit[] => {
    const exits = attachSetup(step);
    const acts = childrenIn(step, 'acts');
    if (acts.length) exits.push(...chainActs(acts, exitOf(step)));
    const branches = childrenIn(step, 'branches');
    for (const branch of branches) {
      add('branch', step.nodeId, branch.nodeId, branchLabel(branch));
      const branchExits = chainSteps(childrenIn(branch, 'steps'), exitOf(branch));
      exits.push(...branchExits.map((exit) => ({ node: exit.node, join: true })));
    }
    attachRules(step);
    const hasChildren = exits.length > 0 || acts.length > 0 || branches.length > 0;
    return hasChildren ? exits : exitOf(step);
  };

  /** Chains a list of steps after `from`; a step with `next` ends the chain (its jump is kept). */
  const chainSteps = (steps: Element[], from: Exit[]): Exit[] => {
    let prev = from;
    for (const step of steps) {
      connect(prev, step.nodeId);
      const exits = stepFlow(step);
      const target = textField(step.map, 'next');
      if (target === undefined) {
        prev = exits;
      } else {
        jumps.push({ step, exits, target });
        prev = [];
      }
    }
    return prev;
  };

  const [root] = elements;
  for (const trigger of childrenIn(root, 'on')) add('trigger', trigger.nodeId, root.nodeId);
  const setupExits = attachSetup(root);
  const steps = childrenIn(root, 'steps');
  const stepExits = steps.length ? chainSteps(steps, exitOf(root)) : [];
  const finished = steps.length || setupExits.length ? [...setupExits, ...stepExits] : exitOf(root);
  connect(finished, END_NODE_ID);

  const stepsById = new Map<string, Element>();
  for (const element of elements) {
    if (element.kind === 'step' && element.elementId && !stepsById.has(element.elementId)) stepsById.set(element.elementId, element);
  }
  for (const { step, exits, target } of jumps) {
    const to = stepsById.get(target);
    if (!to) continue;
    for (const exit of exits) add('next', exit.node, to.nodeId, 'next', to.order <= step.order);
  }
  return edges;
}
