/**
 * The window of a big graph that the canvas hands React Flow. React Flow takes in every node and
 * edge it is given — its node lookup, handle bounds, edge lookups, and a pass over all of them at
 * every change of the view — even when it draws only those in view: ~200 ms to open a 5,000-node
 * run. A big canvas (flow-canvas.tsx) gives it only the nodes in a window around the view (the
 * view grown by `MARGIN` of its size on each side) and the nodes their edges lead to, and moves the
 * window when the view leaves it. Plain functions of the layout and the view.
 *
 * Also the box the view fits on opening, as React Flow's `fitView` chose it on a canvas that draws
 * only what is in view (the nodes it had measured: those of the first pane, at zoom 1).
 */
import type { DesignerGraph, GraphLayout, Point } from '../designer/model/index.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How far the window reaches beyond the view on each side, as a share of the view's size. */
export const MARGIN = 0.5;

/** The part of the graph in view: React Flow's transform `[x, y, zoom]` over a pane of this size, in graph coordinates. */
export function viewRect([x, y, zoom]: readonly [number, number, number], pane: { width: number; height: number }): Rect {
  return { x: (0 - x) / zoom, y: (0 - y) / zoom, width: pane.width / zoom, height: pane.height / zoom };
}

/** `view` grown by `margin` of its size on each side. */
export function windowAround(view: Rect, margin = MARGIN): Rect {
  return { x: view.x - view.width * margin, y: view.y - view.height * margin, width: view.width * (1 + 2 * margin), height: view.height * (1 + 2 * margin) };
}

/** Whether `inner` lies whole inside `outer`. */
export function contains(outer: Rect, inner: Rect): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

const meets = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The ids of the nodes React Flow is given for `window`: those whose box meets it (at their dragged
 * position while dragged), and the other end of each edge of theirs (an edge needs both its nodes).
 */
export function idsInWindow(graph: DesignerGraph, layout: GraphLayout, window: Rect, dragging: Readonly<Record<string, Point>> = {}): Set<string> {
  const ids = new Set<string>();
  for (const node of graph.nodes) {
    const box = layout.nodes[node.id];
    const at = dragging[node.id];
    if (at !== undefined || (box && meets(box, window))) ids.add(node.id);
  }
  const ends: string[] = [];
  for (const edge of graph.edges) {
    if (ids.has(edge.source) && !ids.has(edge.target)) ends.push(edge.target);
    else if (ids.has(edge.target) && !ids.has(edge.source)) ends.push(edge.source);
  }
  for (const id of ends) ids.add(id);
  return ids;
}

/** The box around the laid-out nodes of `ids` (null when none is laid out). */
export function boundsOf(layout: GraphLayout, ids: Iterable<string>): Rect | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const id of ids) {
    const box = layout.nodes[id];
    if (!box) continue;
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  }
  return left === Infinity ? null : { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The box the view fits on opening, as React Flow's `fitView` chose it — the nodes it had
 * measured: every node on a canvas that draws them all, only those in the first pane (zoom 1, from
 * the top left: the start of the flow) on one that draws only what is in view.
 */
export function openingBounds(layout: GraphLayout, pane: { width: number; height: number }, drawsAll: boolean): Rect | null {
  return drawsAll ? boundsOf(layout, Object.keys(layout.nodes)) : boundsMeeting(layout, { x: 0, y: 0, ...pane });
}

/** The box around the laid-out nodes that meet `rect` (what `fitView` fits on a canvas drawing only what is in view: the nodes drawn, those in view). */
export function boundsMeeting(layout: GraphLayout, rect: Rect): Rect | null {
  return boundsOf(
    layout,
    Object.keys(layout.nodes).filter((id) => meets(layout.nodes[id], rect)),
  );
}
