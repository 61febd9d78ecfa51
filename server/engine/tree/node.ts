/**
 * A compiled node of a workflow (spec 1.6, with section 0's fixes). Nodes are immutable once
 * built; dynamic nodes (pushed acts, block expansions, hooks) are built the same way at run time
 * and travel with their task.
 */
import type { Act, Branch, HookEvent, Step, Workflow } from '../model/types.ts';

export type NodeKind = 'workflow' | 'step' | 'branch' | 'act';

export type NodeContent = Workflow | Step | Branch | Act;

export interface CatchRule {
  /** Error code to match; undefined = every error. */
  on?: string;
  /** First step of the catch chain; null = the error is ignored. */
  head: Node | null;
}

export interface TimeoutRule {
  on: string;
  ms: number;
  head: Node | null;
}

export interface HookRule {
  event: HookEvent;
  act: Node;
}

/** What a retired node (tree/retired.ts) keeps of the node it stands for. */
export interface RetiredInfo {
  kind: NodeKind;
  name: string;
  tag: string;
  /** An act's package and business key; '' for other kinds. */
  uses: string;
  key: string;
}

export interface Node {
  id: string;
  kind: NodeKind;
  level: number;
  content: NodeContent;
  parent: Node | null;
  /** Successor in a chain, or the explicit `next` target of a step. */
  next: Node | null;
  /** Children started together when the task runs (branches, first act, first step, first setup act). */
  heads: Node[];
  hooks: HookRule[];
  catches: CatchRule[];
  timeouts: TimeoutRule[];
  /**
   * Tid of the task whose stored definitions built this node at run time (a block expansion or a
   * pushed act), or null for nodes of the compiled model. A reload re-creates dynamic nodes from
   * that task's definitions and finds them by id.
   */
  origin: string | null;
  /** Set on a node a migration retired (tree/retired.ts): it stands for a node the process's model no longer has. */
  retired?: RetiredInfo;
}

export function asWorkflow(node: Node): Workflow {
  return node.content as Workflow;
}
export function asBranch(node: Node): Branch {
  return node.content as Branch;
}
export function asAct(node: Node): Act {
  return node.content as Act;
}

/** The business key of a node (spec 3.3): act key, else the node id (model id for the root). */
export function nodeKey(node: Node): string {
  if (node.kind === 'act') {
    const key = asAct(node).key;
    if (key) return key;
  }
  return node.id;
}
