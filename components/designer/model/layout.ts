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
 *
 * Long models are laid out in segments: dagre walks the graph depth-first by recursion, so a chain
 * of a thousand steps overflowed the browser's stack ("Maximum call stack size exceeded"), and
 * it costs ~0.3 ms a node. A graph of more than SEGMENT_NODES nodes is cut, in document order,
 * wherever exactly one laid-out edge joins what comes before to what comes after (between two
 * steps, around a step's branches): each segment is laid out alone — a lone node placed as is,
 * a block by dagre — and placed below the one before, shifted so that the joining edge runs
 * straight down. A smaller graph is laid out whole, as before.
 *
 * Left to right (`direction: 'LR'`) is the same layout turned a quarter: each box goes to dagre
 * with its width and height swapped, and the result is transposed (x ↔ y) — so the segments,
 * their joins and the shift stay one piece of code for both directions.
 *
 * State: the last layout computed, kept by the graph's shape (node ids in order with their sizes, edges,
 * gaps): an edit that leaves the shape alone (a rename, a param) redraws without laying out again.
 */
import dagre from '@dagrejs/dagre';
import type { DesignerGraph, EdgeKind, GraphEdge, GraphNode, NodeKind } from '../../../vocab/graph.ts';

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

/** `TB`: the flow runs top to bottom (the default); `LR`: left to right. */
export type LayoutDirection = 'TB' | 'LR';

export interface LayoutOptions {
  /** Which way the flow runs (default `TB`). */
  direction?: LayoutDirection;
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
  stretch: { width: 220, height: 48 },
};

/** Edges of the main flow go to dagre first, so it is the left spine and attachments sit to its right. */
const MAIN_FLOW: ReadonlySet<EdgeKind> = new Set(['flow', 'join', 'branch', 'next']);

/** Chain edges pull harder than attachments, which keeps the main flow straight. */
const WEIGHTS: Readonly<Record<EdgeKind, number>> = {
  flow: 4, join: 2, branch: 2, setup: 1, next: 1, catch: 1, timeout: 1, hook: 1, trigger: 2,
};

/** A graph of more nodes than this is laid out in segments (a smaller one whole, by dagre). */
const SEGMENT_NODES = 120;

/** A run of nodes laid out together, its edges, and the edge that joins it to the nodes before (none for the first). */
interface Segment {
  nodes: GraphNode[];
  edges: GraphEdge[];
  joinedBy?: GraphEdge;
}

/** dagre's margin around a laid-out graph. */
const MARGIN = 20;

/**
 * The segments of `nodes` (in document order): cut wherever exactly one of `edges` joins the nodes
 * before to those after — or, for a graph of at most `whole` nodes, nowhere. One sweep, keeping
 * the edges open at each position (opened at the earlier of its two ends, closed after the later);
 * each edge then goes to the segment holding both its ends.
 */
function segmentsOf(nodes: readonly GraphNode[], edges: readonly GraphEdge[], whole: number): Segment[] {
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const opening = nodes.map((): GraphEdge[] => []);
  const closing = nodes.map((): GraphEdge[] => []);
  for (const edge of edges) {
    const a = index.get(edge.source)!;
    const b = index.get(edge.target)!;
    if (a === b) continue;
    opening[Math.min(a, b) + 1].push(edge);
    closing[Math.max(a, b)].push(edge);
  }
  const open = new Set<GraphEdge>();
  const segments: Segment[] = [{ nodes: [], edges: [] }];
  const segmentAt: number[] = [];
  nodes.forEach((node, i) => {
    for (const edge of opening[i]) open.add(edge);
    if (open.size === 1 && nodes.length > whole && i > 0) segments.push({ nodes: [], edges: [], joinedBy: open.values().next().value });
    segments[segments.length - 1].nodes.push(node);
    segmentAt.push(segments.length - 1);
    for (const edge of closing[i]) open.delete(edge);
  });
  for (const edge of edges) {
    const at = segmentAt[index.get(edge.source)!];
    if (at === segmentAt[index.get(edge.target)!]) segments[at].edges.push(edge);
  }
  return segments;
}

/** A segment's node centres, its routed edges' points, and its height: one node placed as is, more by dagre. */
function layoutSegment({ nodes, edges }: Segment, sizeOf: (node: GraphNode) => Size, options: LayoutOptions) {
  const centres = new Map<string, Point & Size>();
  const points = new Map<string, Point[]>();
  if (nodes.length === 1) {
    const { width, height } = sizeOf(nodes[0]);
    centres.set(nodes[0].id, { x: MARGIN + width / 2, y: MARGIN + height / 2, width, height });
    return { centres, points, height: height + 2 * MARGIN };
  }
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: options.nodeGap ?? 40, ranksep: options.rankGap ?? 50, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { ...sizeOf(node) });
  const mainFirst = [...edges.filter((e) => MAIN_FLOW.has(e.kind)), ...edges.filter((e) => !MAIN_FLOW.has(e.kind))];
  for (const edge of mainFirst) g.setEdge(edge.source, edge.target, { weight: WEIGHTS[edge.kind], minlen: 1 });
  dagre.layout(g, { disableOptimalOrderHeuristic: true });
  for (const node of nodes) {
    const { x = 0, y = 0, width, height } = g.node(node.id);
    centres.set(node.id, { x, y, width, height });
  }
  for (const edge of edges) points.set(edge.id, g.edge(edge.source, edge.target)?.points ?? []);
  return { centres, points, height: g.graph().height ?? 0 };
}

/** Node centres and routed edges of a whole graph, before pinned positions apply. */
interface Placement {
  centres: Map<string, Point & Size>;
  points: Map<string, Point[]>;
  bottom: number;
}

/** What decides a layout besides pins: the nodes with their sizes, the edges, the gaps. */
function shapeKey(graph: DesignerGraph, sizeOf: (node: GraphNode) => Size, options: LayoutOptions): string {
  const nodes = graph.nodes.map((node) => {
    const { width, height } = sizeOf(node);
    return `${node.id} ${width} ${height}`;
  });
  const edges = graph.edges.map((edge) => `${edge.id} ${edge.source} ${edge.target} ${edge.kind} ${edge.back ? 1 : 0}`);
  return `${options.nodeGap ?? ''}|${options.rankGap ?? ''}\n${nodes.join('\n')}\n${edges.join('\n')}`;
}

let last: { key: string; placement: Placement } | undefined;

export function layout(graph: DesignerGraph, options: LayoutOptions = {}): GraphLayout {
  const boxSize = options.nodeSize ?? ((node: GraphNode) => DEFAULT_SIZES[node.kind]);
  const across = options.direction === 'LR';
  const sizeOf = across ? (node: GraphNode) => swapped(boxSize(node)) : boxSize;
  const key = `${across ? 'LR' : 'TB'}|${shapeKey(graph, sizeOf, options)}`;
  if (last?.key !== key) last = { key, placement: place(graph, sizeOf, options) };
  const laidOut = boxesOf(graph, last.placement);
  return withPins(across ? transposed(laidOut) : laidOut, options.pinned);
}

function swapped({ width, height }: Size): Size {
  return { width: height, height: width };
}

/** A top-to-bottom layout turned into left-to-right: x ↔ y, width ↔ height. */
function transposed(laidOut: GraphLayout): GraphLayout {
  const nodes: Record<string, NodeBox> = {};
  for (const [id, box] of Object.entries(laidOut.nodes)) nodes[id] = { x: box.y, y: box.x, width: box.height, height: box.width };
  const edges: Record<string, Point[]> = {};
  for (const [id, route] of Object.entries(laidOut.edges)) edges[id] = route.map((p) => ({ x: p.y, y: p.x }));
  return { nodes, edges, width: laidOut.height, height: laidOut.width };
}

/** `laidOut` with pinned nodes where the user put them. */
function withPins(laidOut: GraphLayout, pinned: LayoutOptions['pinned']): GraphLayout {
  if (!pinned) return laidOut;
  const nodes = { ...laidOut.nodes };
  for (const [id, at] of Object.entries(pinned)) if (nodes[id]) nodes[id] = { ...nodes[id], x: at.x, y: at.y };
  return { ...laidOut, nodes };
}

/** Lays out the whole graph, segment after segment. */
function place(graph: DesignerGraph, sizeOf: (node: GraphNode) => Size, options: LayoutOptions): Placement {
  const ids = new Set(graph.nodes.map((node) => node.id));
  const laidOut = graph.edges.filter((edge) => !edge.back && ids.has(edge.source) && ids.has(edge.target));
  const centres = new Map<string, Point & Size>();
  const points = new Map<string, Point[]>();
  /** The lowest edge of the nodes placed so far. */
  let bottom = 0;
  for (const segment of segmentsOf(graph.nodes, laidOut, SEGMENT_NODES)) {
    const part = layoutSegment(segment, sizeOf, options);
    // below the segment before, shifted so that the edge joining them runs straight down
    const from = segment.joinedBy && centres.get(segment.joinedBy.source);
    const to = segment.joinedBy && part.centres.get(segment.joinedBy.target);
    const dx = from && to ? from.x - to.x : 0;
    const dy = segment.joinedBy ? bottom + (options.rankGap ?? 50) - MARGIN : 0;
    for (const [id, c] of part.centres) centres.set(id, { ...c, x: c.x + dx, y: c.y + dy });
    for (const [id, route] of part.points) points.set(id, route.map((p) => ({ x: p.x + dx, y: p.y + dy })));
    bottom = dy + part.height - MARGIN;
  }
  return { centres, points, bottom };
}

/** The boxes of `placement` (top-left corners), moved right of the margin. */
function boxesOf(graph: DesignerGraph, { centres, points, bottom }: Placement): GraphLayout {
  // segments shifted left of the margin move everything right (one segment: nothing moves)
  let left = Infinity;
  for (const c of centres.values()) left = Math.min(left, c.x - c.width / 2);
  const shift = centres.size > 0 ? MARGIN - left : 0;
  const nodes: Record<string, NodeBox> = {};
  let right = 0;
  for (const node of graph.nodes) {
    const { x, y, width, height } = centres.get(node.id)!;
    right = Math.max(right, x + shift + width / 2);
    nodes[node.id] = { x: x + shift - width / 2, y: y - height / 2, width, height };
  }
  const edges: Record<string, Point[]> = {};
  for (const [id, route] of points) edges[id] = route.map((p) => ({ x: p.x + shift, y: p.y }));
  return { nodes, edges, width: right + MARGIN, height: bottom + MARGIN };
}
