/**
 * Designer graph + layout (+ states, problems, selection) → React Flow nodes and edges, keeping
 * object identity: a node whose inputs did not change is the very same object as last time, so
 * React Flow reuses its internal node and the memoised node component does not render again.
 *
 * State: an `ElementCache` (one per canvas) maps node and edge ids to the last object built and the
 * inputs it was built from (a first build compares nothing). `buildNodes`/`buildEdges` read and refresh it; entries of ids that
 * vanished are dropped on each build.
 *
 * Nodes get explicit `width`/`height` and `handles` from the layout, so React Flow can draw edges
 * before it has measured anything (and never needs to re-measure a changed node).
 *
 * `inWindow` picks the elements of a big graph's window (view-window.ts), keeping the lists too.
 */
import { MarkerType, Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import type { DesignerGraph, GraphEdge, GraphLayout, GraphNode, LayoutDirection, Point, ProblemLike } from '../designer/model/index.ts';

/** What a node component receives as `data` (the same object while its inputs are unchanged). */
export type FlowNodeData = {
  node: GraphNode;
  /** The task state of a run (`completed`, `running`, …), when the canvas shows one. */
  state?: string;
  /** Problem messages pinned to this node. */
  problems?: readonly string[];
  /** Greyed out (the YAML has a syntax error and this is the last good graph). */
  dimmed?: boolean;
  /** The flow runs left to right: edges enter on the left and leave on the right, loops below. */
  across?: boolean;
  /** How the node differs from another version of the model (a version comparison). */
  mark?: DiffMark;
};

/** A node of a version comparison: `removed` nodes are drawn from the old version, ghosted. */
export type DiffMark = 'added' | 'removed' | 'changed' | 'moved';

export type FlowNode = Node<FlowNodeData, GraphNode['kind']>;
export type FlowEdge = Edge<{ kind: GraphEdge['kind'] }>;

export interface BuildInput {
  graph: DesignerGraph;
  layout: GraphLayout;
  states?: Readonly<Record<string, string>>;
  problems?: ReadonlyMap<string, readonly ProblemLike[]>;
  selected?: string | null;
  /** Positions being dragged right now (override the layout until the drag ends). */
  dragging?: Readonly<Record<string, Point>>;
  draggable?: boolean;
  dimmed?: boolean;
  /** The layout's direction (default `TB`); it decides where the handles sit. */
  direction?: LayoutDirection;
  /** Diff marks by node id (a version comparison). */
  marks?: Readonly<Record<string, DiffMark>>;
}

/** What an element was built from: compared input by input (cheaper than a text signature). */
type Inputs = readonly unknown[];

interface Cached<T> {
  inputs: Inputs;
  value: T;
}

export interface ElementCache {
  nodes: Map<string, Cached<FlowNode>>;
  edges: Map<string, Cached<FlowEdge>>;
  /** The last lists given out: the same list again when every element is the same (React Flow then does nothing). */
  nodeList: FlowNode[];
  edgeList: FlowEdge[];
  /** The last window's lists (`inWindow`). */
  windowNodes: FlowNode[];
  windowEdges: FlowEdge[];
}

export function createElementCache(): ElementCache {
  return { nodes: new Map(), edges: new Map(), nodeList: [], edgeList: [], windowNodes: [], windowEdges: [] };
}

/** `previous` when `next` holds the very same elements, else `next`. */
function sameList<T>(previous: T[], next: T[]): T[] {
  return previous.length === next.length && next.every((item, i) => item === previous[i]) ? previous : next;
}

/**
 * Handle ids: `in`/`out` for the main flow (top/bottom; left/right when the flow runs left to
 * right), `back-in`/`back-out` for loops (right; bottom when left to right).
 */
export const HANDLES = { in: 'in', out: 'out', backIn: 'back-in', backOut: 'back-out' } as const;

/** Where each handle sits on a box, as fractions of its width and height, by direction. */
export const HANDLE_SIDES = {
  TB: { in: [Position.Top, 0.5, 0], out: [Position.Bottom, 0.5, 1], backIn: [Position.Right, 1, 0.3], backOut: [Position.Right, 1, 0.7] },
  LR: { in: [Position.Left, 0, 0.5], out: [Position.Right, 1, 0.5], backIn: [Position.Bottom, 0.3, 1], backOut: [Position.Bottom, 0.7, 1] },
} as const satisfies Record<LayoutDirection, Record<keyof typeof HANDLES, readonly [Position, number, number]>>;

/** The handles of each box size and direction, made once: React Flow only reads them, and a 5,000-node graph has a handful of sizes. */
const handleSets = new Map<string, NodeHandle[]>();

function handlesFor(width: number, height: number, direction: LayoutDirection): NodeHandle[] {
  const key = `${width}x${height}/${direction}`;
  let handles = handleSets.get(key);
  if (!handles) handleSets.set(key, (handles = makeHandles(width, height, direction)));
  return handles;
}

function makeHandles(width: number, height: number, direction: LayoutDirection): NodeHandle[] {
  const sides = HANDLE_SIDES[direction];
  return (Object.keys(HANDLES) as (keyof typeof HANDLES)[]).map((name) => {
    const [position, fx, fy] = sides[name];
    const type = name === 'in' || name === 'backIn' ? 'target' : 'source';
    return { id: HANDLES[name], type, position, x: width * fx, y: height * fy, width: 1, height: 1 };
  });
}

/** Two graph nodes show the same (their ranges are left out: they move whenever text above them changes). */
export function sameShown(a: GraphNode, b: GraphNode): boolean {
  if (a === b) return true;
  for (const key in a) {
    if (key === 'range' || a[key as keyof GraphNode] === b[key as keyof GraphNode]) continue;
    const x = a[key as keyof GraphNode];
    const y = b[key as keyof GraphNode];
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((item, i) => item !== y[i])) return false;
  }
  for (const key in b) if (key !== 'range' && !(key in a)) return false;
  return true;
}

/** The first input is the graph node (compared by what it shows), the others by identity. */
function sameInputs(a: Inputs, b: Inputs): boolean {
  if (a.length !== b.length || !sameShown(a[0] as GraphNode, b[0] as GraphNode)) return false;
  for (let i = 1; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function keep<T>(map: Map<string, Cached<T>>, next: Map<string, Cached<T>>, id: string, inputs: Inputs, same: (a: Inputs, b: Inputs) => boolean, make: () => T): T {
  const old = map.get(id);
  const value = old && same(old.inputs, inputs) ? old.value : make();
  next.set(id, { inputs, value });
  return value;
}

const sameValues = (a: Inputs, b: Inputs) => a.length === b.length && a.every((value, i) => value === b[i]);

export function buildNodes(cache: ElementCache, input: BuildInput): FlowNode[] {
  const next = new Map<string, Cached<FlowNode>>();
  const nodes = input.graph.nodes.map((node) => {
    const box = input.layout.nodes[node.id] ?? { x: 0, y: 0, width: 200, height: 40 };
    const at = input.dragging?.[node.id] ?? box;
    const state = input.states?.[node.id];
    const problems = input.problems?.get(node.id)?.map((p) => p.message);
    const selected = input.selected === node.id;
    const direction = input.direction ?? 'TB';
    const mark = input.marks?.[node.id];
    const inputs = [node, at.x, at.y, box.width, box.height, state, problems?.join('\n'), selected, input.draggable, input.dimmed, direction, mark];
    return keep(cache.nodes, next, node.id, inputs, sameInputs, (): FlowNode => {
      const data: FlowNodeData = { node };
      if (state !== undefined) data.state = state;
      if (problems?.length) data.problems = problems;
      if (input.dimmed) data.dimmed = true;
      if (direction === 'LR') data.across = true;
      if (mark) data.mark = mark;
      return {
        id: node.id,
        type: node.kind,
        position: { x: at.x, y: at.y },
        width: box.width,
        height: box.height,
        handles: handlesFor(box.width, box.height, direction),
        data,
        selected,
        draggable: input.draggable ?? false,
        connectable: false,
        deletable: false,
        ariaLabel: `${node.kind} ${node.label}${state ? `, ${state}` : ''}${mark ? `, ${mark}` : ''}${problems?.length ? `, ${problems.length} problem${problems.length > 1 ? 's' : ''}` : ''}`,
      };
    });
  });
  cache.nodes = next;
  cache.nodeList = sameList(cache.nodeList, nodes);
  return cache.nodeList;
}

/** The nodes of `ids` and the edges between them (every element when `ids` is null); the same lists again when they hold the same elements. */
export function inWindow(cache: ElementCache, nodes: FlowNode[], edges: FlowEdge[], ids: ReadonlySet<string> | null): { nodes: FlowNode[]; edges: FlowEdge[] } {
  if (!ids) return { nodes, edges };
  cache.windowNodes = sameList(cache.windowNodes, nodes.filter((node) => ids.has(node.id)));
  cache.windowEdges = sameList(cache.windowEdges, edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target)));
  return { nodes: cache.windowNodes, edges: cache.windowEdges };
}

const DASHED = new Set<GraphEdge['kind']>(['catch', 'timeout', 'hook', 'setup']);

function edgeOf(edge: GraphEdge): FlowEdge {
  const back = edge.back === true;
  const flow: FlowEdge = {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: back ? HANDLES.backOut : HANDLES.out,
    targetHandle: back ? HANDLES.backIn : HANDLES.in,
    type: back ? 'back' : 'default',
    className: `edge-${edge.kind}${DASHED.has(edge.kind) ? ' edge-dashed' : ''}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
    selectable: false,
    focusable: false,
    deletable: false,
    data: { kind: edge.kind },
  };
  if (edge.label !== undefined && edge.kind !== 'next') flow.label = edge.label;
  if (back) flow.label = 'next';
  return flow;
}

export function buildEdges(cache: ElementCache, graph: DesignerGraph): FlowEdge[] {
  const next = new Map<string, Cached<FlowEdge>>();
  const edges = graph.edges.map((edge) => keep(cache.edges, next, edge.id, [edge.label, edge.back], sameValues, () => edgeOf(edge)));
  cache.edges = next;
  cache.edgeList = sameList(cache.edgeList, edges);
  return cache.edgeList;
}
