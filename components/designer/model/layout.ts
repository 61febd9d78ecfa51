/**
 * `layout`: positions for the designer graph with dagre, top to bottom.
 *
 * Steps are drawn as a chain, not as containers: a step is a header box followed by its acts, its
 * branches fan out below it and join into the next step. Containers would need dagre's compound
 * layout, which routes edges into and out of clusters poorly and gets crowded when branches nest
 * steps several levels deep; a chain keeps every node a plain box on a rank, so parallel branches
 * read as columns and the canvas needs no parent/child extents. (The `parent` of each node is still
 * there if the canvas wants to shade a step's group.)
 *
 * `next` edges that loop back are left out of the layout (the canvas draws them as curved back
 * edges), so loops never reverse the flow. Nodes and edges go to dagre in document order, and
 * dagre's crossing-reduction sweeps are turned off: its first ordering (a depth-first walk of the
 * edges, main-flow edges first) already makes the main flow the left spine and places siblings —
 * branches, catch and timeout rules, hooks — left to right as the YAML lists them, keeps columns where they were when an edit adds a node, and halves
 * the time (the workflow graphs are nearly series-parallel, so the sweeps rarely remove a crossing).
 * The same graph always gets the same positions. Pinned positions (dragged by the user, kept in
 * the model's studio metadata) replace the computed ones.
 */
import dagre from '@dagrejs/dagre';
import type { DesignerGraph, EdgeKind, GraphNode, NodeKind } from '../../../vocab/graph.ts';

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** A node's box; `x`/`y` is the top-left corner (React Flow's convention). */
export interface NodeBox extends Point, Size {}

export interface LayoutOptions {
  /** Size of each node's box (default: by kind, see `DEFAULT_SIZES`). */
  nodeSize?: (node: GraphNode) => Size;
  /** Horizontal gap between nodes of a rank (default 40). */
  nodeGap?: number;
  /** Vertical gap between ranks (default 50). */
  rankGap?: number;
  /** Positions (top-left) the user chose; they replace the computed ones. */
  pinned?: Readonly<Record<string, Point>>;
}

export interface GraphLayout {
  nodes: Record<string, NodeBox>;
  /** Bend points of the edges dagre routed (back `next` edges have none). */
  edges: Record<string, Point[]>;
  width: number;
  height: number;
}

export const DEFAULT_SIZES: Readonly<Record<NodeKind, Size>> = {
  start: { width: 180, height: 40 },
  end: { width: 120, height: 32 },
  trigger: { width: 180, height: 40 },
  step: { width: 220, height: 48 },
  branch: { width: 200, height: 40 },
  act: { width: 220, height: 44 },
  hook: { width: 200, height: 40 },
  catch: { width: 170, height: 32 },
  timeout: { width: 170, height: 32 },
};

/** Edges of the main flow go to dagre first, so it is the left spine and attachments sit to its right. */
const MAIN_FLOW: ReadonlySet<EdgeKind> = new Set(['flow', 'join', 'branch', 'next']);

/** Chain edges pull harder than attachments, which keeps the main flow straight. */
const WEIGHTS: Readonly<Record<EdgeKind, number>> = {
  flow: 4, join: 2, branch: 2, setup: 1, next: 1, catch: 1, timeout: 1, hook: 1, trigger: 2,
};

export function layout(graph: DesignerGraph, options: LayoutOptions = {}): GraphLayout {
  const sizeOf = options.nodeSize ?? ((node: GraphNode) => DEFAULT_SIZES[node.kind]);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: options.nodeGap ?? 40, ranksep: options.rankGap ?? 50, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { ...sizeOf(node) });
  const laidOut = graph.edges.filter((edge) => !edge.back && g.hasNode(edge.source) && g.hasNode(edge.target));
  const mainFirst = [...laidOut.filter((e) => MAIN_FLOW.has(e.kind)), ...laidOut.filter((e) => !MAIN_FLOW.has(e.kind))];
  for (const edge of mainFirst) g.setEdge(edge.source, edge.target, { weight: WEIGHTS[edge.kind], minlen: 1 });
  dagre.layout(g, { disableOptimalOrderHeuristic: true });

  const nodes: Record<string, NodeBox> = {};
  for (const node of graph.nodes) {
    const { x, y, width, height } = g.node(node.id);
    const pinned = options.pinned?.[node.id];
    nodes[node.id] = { x: pinned?.x ?? (x ?? 0) - width / 2, y: pinned?.y ?? (y ?? 0) - height / 2, width, height };
  }
  const edges: Record<string, Point[]> = {};
  for (const edge of laidOut) edges[edge.id] = g.edge(edge.source, edge.target)?.points ?? [];
  const { width = 0, height = 0 } = g.graph();
  return { nodes, edges, width, height };
}
