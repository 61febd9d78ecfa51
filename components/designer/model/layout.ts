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
 * edges), so loops never reverse the flow. Nodes and edges go to dagre in document order, so the
 * same graph always gets the same positions. Pinned positions (dragged by the user, kept in the
 * model's studio metadata) replace the computed ones.
 */
import dagre from '@dagrejs/dagre';
import type { DesignerGraph, EdgeKind, GraphNode, NodeKind } from './types.ts';

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

const SIDE_BY_SIDE: ReadonlySet<NodeKind> = new Set(['branch', 'catch', 'timeout', 'hook', 'trigger']);

/** Chain edges pull harder than attachments, which keeps the main flow straight. */
const WEIGHTS: Readonly<Record<EdgeKind, number>> = {
  flow: 4, join: 2, branch: 2, setup: 1, next: 1, catch: 1, timeout: 1, hook: 1, trigger: 2,
};

/** Keeps siblings that share a rank (branches, catch and timeout rules, hooks) in document order. */
function siblingOrder(graph: DesignerGraph): { left: string; right: string }[] {
  const constraints: { left: string; right: string }[] = [];
  const lastChild = new Map<string, GraphNode>();
  for (const node of graph.nodes) {
    if (!SIDE_BY_SIDE.has(node.kind) || node.parent === undefined) continue;
    const key = `${node.parent}\u0000${node.kind}`;
    const previous = lastChild.get(key);
    if (previous) constraints.push({ left: previous.id, right: node.id });
    lastChild.set(key, node);
  }
  return constraints;
}

export function layout(graph: DesignerGraph, options: LayoutOptions = {}): GraphLayout {
  const sizeOf = options.nodeSize ?? ((node: GraphNode) => DEFAULT_SIZES[node.kind]);
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: options.nodeGap ?? 40, ranksep: options.rankGap ?? 50, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) g.setNode(node.id, { ...sizeOf(node) });
  const laidOut = graph.edges.filter((edge) => !edge.back && g.hasNode(edge.source) && g.hasNode(edge.target));
  for (const edge of laidOut) g.setEdge(edge.source, edge.target, { weight: WEIGHTS[edge.kind], minlen: 1 }, edge.id);
  dagre.layout(g, { constraints: siblingOrder(graph) });

  const nodes: Record<string, NodeBox> = {};
  for (const node of graph.nodes) {
    const { x, y, width, height } = g.node(node.id);
    const pinned = options.pinned?.[node.id];
    nodes[node.id] = { x: pinned?.x ?? (x ?? 0) - width / 2, y: pinned?.y ?? (y ?? 0) - height / 2, width, height };
  }
  const edges: Record<string, Point[]> = {};
  for (const edge of laidOut) edges[edge.id] = g.edge(edge.source, edge.target, edge.id)?.points ?? [];
  const { width = 0, height = 0 } = g.graph();
  return { nodes, edges, width, height };
}
