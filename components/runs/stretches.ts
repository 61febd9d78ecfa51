/**
 * Folding finished stretches of a long run: consecutive top-level steps that all finished
 * (`completed` or `skipped`) become one `stretch` node ("12 steps done") holding those steps and
 * everything inside them; edges into and out of the stretch attach to that node. Plain functions
 * of the graph and the node states, one pass over the nodes and one over the edges (no recursion:
 * parents come before their children in document order).
 *
 * The last finished step before the step that runs now stays out of the stretch, as context. By
 * default (`defaultStretches`) a run is folded only when it is long and still has active nodes;
 * a finished run opens whole, as it always did. The run page follows the default as the run goes
 * on (run-graph.tsx).
 */
import { WORKFLOW_NODE_ID, type DesignerGraph, type GraphEdge, type GraphNode } from '../designer/model/index.ts';
import { activeNodeIds } from './active-region.ts';

const FINISHED: ReadonlySet<string> = new Set(['completed', 'skipped']);

/** Fewer finished steps in a row than this stay as they are. */
export const MIN_STRETCH = 3;
/** A graph of fewer nodes than this is never folded by default. */
export const LONG_RUN_NODES = 30;

export interface Stretch {
  /** The stretch node's id: `stretch:<first step's node id>`. */
  id: string;
  /** Node ids of its top-level steps, in order. */
  steps: readonly string[];
}

const isTopStep = (node: GraphNode) => node.kind === 'step' && node.parent === WORKFLOW_NODE_ID;

/** Every run of at least `minSteps` finished top-level steps (the last one before an unfinished step left out, as context). */
export function finishedStretches(graph: DesignerGraph, states: Readonly<Record<string, string>>, minSteps = MIN_STRETCH): Stretch[] {
  const stretches: Stretch[] = [];
  let run: string[] = [];
  const close = (followed: boolean) => {
    const steps = followed ? run.slice(0, -1) : run;
    if (steps.length >= minSteps) stretches.push({ id: `stretch:${steps[0]}`, steps });
    run = [];
  };
  for (const node of graph.nodes) {
    if (!isTopStep(node)) continue;
    if (FINISHED.has(states[node.id] ?? '')) run.push(node.id);
    else if (run.length) close(true);
  }
  if (run.length) close(false);
  return stretches;
}

/** The stretches a run page opens with: none for a short or finished run, else every finished stretch. */
export function defaultStretches(graph: DesignerGraph, states: Readonly<Record<string, string>>): Stretch[] {
  if (graph.nodes.length < LONG_RUN_NODES || activeNodeIds(graph, states).length === 0) return [];
  return finishedStretches(graph, states);
}

/** Whether two foldings fold the same steps. */
export function sameStretches(a: readonly Stretch[], b: readonly Stretch[]): boolean {
  return a.length === b.length && a.every((s, i) => s.id === b[i].id && s.steps.length === b[i].steps.length);
}

/** `graph` with each stretch folded into one node; the same graph object when there is none. */
export function collapsed(graph: DesignerGraph, stretches: readonly Stretch[]): DesignerGraph {
  if (!stretches.length) return graph;
  const byStep = new Map<string, Stretch>();
  for (const stretch of stretches) for (const id of stretch.steps) byStep.set(id, stretch);
  const within = new Map<string, Stretch>();
  const labels = new Map<string, string>();
  for (const node of graph.nodes) {
    const stretch = byStep.get(node.id) ?? (node.parent === undefined ? undefined : within.get(node.parent));
    if (!stretch) continue;
    within.set(node.id, stretch);
    if (byStep.has(node.id)) labels.set(node.id, node.label);
  }
  const nodes: GraphNode[] = [];
  for (const node of graph.nodes) {
    const stretch = within.get(node.id);
    if (!stretch) nodes.push(node);
    else if (node.id === stretch.steps[0]) nodes.push(stretchNode(stretch, node, labels));
  }
  return { ...graph, nodes, edges: foldedEdges(graph.edges, within) };
}

/** The node standing for a stretch, where its first step was: "12 steps done", badge "Stage 1 … Stage 12". */
function stretchNode(stretch: Stretch, first: GraphNode, labels: ReadonlyMap<string, string>): GraphNode {
  const span = `${labels.get(stretch.steps[0])} … ${labels.get(stretch.steps.at(-1)!)}`;
  return { id: stretch.id, kind: 'stretch', label: `${stretch.steps.length} steps done`, path: '', parent: first.parent, index: first.index, badges: [span] };
}

/** Edges with their ends inside a stretch moved to the stretch node; edges within one stretch dropped, duplicates once. */
function foldedEdges(edges: readonly GraphEdge[], within: ReadonlyMap<string, Stretch>): GraphEdge[] {
  const seen = new Set<string>();
  const folded: GraphEdge[] = [];
  for (const edge of edges) {
    const source = within.get(edge.source)?.id ?? edge.source;
    const target = within.get(edge.target)?.id ?? edge.target;
    if (source === edge.source && target === edge.target) {
      seen.add(edge.id);
      folded.push(edge);
      continue;
    }
    const id = `${edge.kind}:${source}->${target}`;
    if (source === target || seen.has(id)) continue;
    seen.add(id);
    folded.push({ ...edge, id, source, target });
  }
  return folded;
}
