/**
 * The workflow graph as the designer draws it and the run view colours it: the element tree of a
 * model document (which list holds which kind of element), the graph's nodes and edges, and the
 * engine's node id of each element. Plain data (no YAML nodes), so the React canvas can memoise on
 * it, the engine can walk a document with the same element table, and the API can name nodes.
 */
import type { ModelProblem, SourcePosition } from './model-problems.ts';

/** The elements of a model document (spec 1.2–1.5). */
export type ElementKind = 'workflow' | 'step' | 'branch' | 'act' | 'catch' | 'timeout' | 'trigger';

/** The list fields of each element kind and the kind of element they hold, in drawing order. */
export const ELEMENT_LISTS: Readonly<Record<ElementKind, readonly (readonly [string, ElementKind])[]>> = {
  workflow: [['on', 'trigger'], ['setup', 'act'], ['steps', 'step']],
  step: [['setup', 'act'], ['acts', 'act'], ['branches', 'branch'], ['catches', 'catch'], ['timeout', 'timeout']],
  branch: [['steps', 'step']],
  act: [['setup', 'act'], ['catches', 'catch'], ['timeout', 'timeout']],
  catch: [['steps', 'step']],
  timeout: [['steps', 'step']],
  trigger: [],
};

/** Where a node sits in the YAML text: character offsets (for CodeMirror) and line/column. */
export interface SourceRange {
  start: number;
  end: number;
  from: SourcePosition;
  to: SourcePosition;
}

/**
 * `start`/`end`: the workflow; `hook`: a setup act with `on:` (fires on a lifecycle event);
 * `act`: an act of a step's chain or a setup act without `on:`; `stretch`: consecutive finished
 * steps folded into one node (the run page only, see components/runs/stretches.ts).
 */
export type NodeKind = 'start' | 'end' | 'trigger' | 'step' | 'branch' | 'act' | 'hook' | 'catch' | 'timeout' | 'stretch';

export interface GraphNode {
  /** Stable id (see `node-ids.ts`): `workflow`, `workflow:end`, `step:manager`, `step:pay/acts[0]`, … */
  id: string;
  kind: NodeKind;
  /** What the box shows: the name, else the id, else the act key or package. */
  label: string;
  /** YAML path of the element (`steps[1].acts[0]`; `''` for the workflow and its end). */
  path: string;
  /** Node id of the element that owns this one (a step for its acts, a branch for its steps, …). */
  parent?: string;
  /** Position in the owner's list (`acts`, `steps`, `branches`, `catches`, `setup`, `on`). */
  index: number;
  /** The `id:` written in the YAML, when there is one. */
  elementId?: string;
  range?: SourceRange;
  /** Short facts the box shows as badges: `if …`, `else`, `needs a, b`, `next → x`, `subflow → m`. */
  badges: string[];
  uses?: string;
  key?: string;
  /** `if` of a step, branch or act. */
  condition?: string;
  /** A branch with `else: true`. */
  isElse?: boolean;
  /** Sibling branch ids a branch waits for. */
  needs?: string[];
  /** The step id a step jumps to. */
  next?: string;
  /** Hook event, catch error code (absent = any error) or timeout duration. */
  on?: string;
  /** Model id an `acts.core.subflow` act starts (absent when not a plain text). */
  subflow?: string;
}

/**
 * `flow`: sequential order (step → step, step → its first act, act → act, chain end → successor);
 * `join`: a branch chain ending into the step's successor; `branch`: a step fanning out to a branch;
 * `setup`: an owner to its first setup act; `next`: a jump (`back` when it loops to an earlier or
 * enclosing step); `catch` / `timeout` / `hook`: an owner to an attached rule or hook;
 * `trigger`: a trigger to the workflow start.
 */
export type EdgeKind = 'flow' | 'join' | 'branch' | 'setup' | 'next' | 'catch' | 'timeout' | 'hook' | 'trigger';

export interface GraphEdge {
  /** `<kind>:<source>-><target>`. */
  id: string;
  kind: EdgeKind;
  source: string;
  target: string;
  label?: string;
  /** A `next` edge to an earlier or enclosing step: draw it as a curved back edge. */
  back?: boolean;
}

export interface DesignerGraph {
  /** In document order (parents before children), which keeps layouts deterministic. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** YAML syntax problems (code `yaml.syntax`, with positions); the graph holds what could be read. */
  errors: ModelProblem[];
}

export const WORKFLOW_NODE_ID = 'workflow';
export const END_NODE_ID = 'workflow:end';
/** The task id (`tid`) of a process's workflow task, the root of its task tree. */
export const WORKFLOW_TID = '$';

/** An element of the model a process runs: its YAML path (`''` for the workflow) and the engine's node id (a task's `nid`). */
export interface ModelNodeId {
  path: string;
  nid: string;
}
