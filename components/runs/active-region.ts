/**
 * Where the run graph's view goes: the active nodes (under way: running, or waiting for a person,
 * a free slot or their children — `isUnderWayName`)
 * and the viewport that shows them legibly. Plain functions of the graph, its layout, the node
 * states and the pane's size, so the React part (follow-active.tsx) only decides when to move.
 *
 * The view fits the active nodes with a little context around them, zoomed between
 * `LEGIBLE_ZOOM` (node text still reads) and `MAX_ZOOM`; when they are too far apart to fit at a
 * legible zoom (parallel branches wide apart), it shows the last of them in document order — the
 * deepest, most recently reached one.
 */
import type { DesignerGraph, GraphLayout } from '../designer/model/index.ts';
import { boundsOf, type Rect } from '../graph/view-window.ts';
import { isUnderWayName } from '../../vocab/states.ts';

/** The workflow's own start and end boxes carry the run's state, not a place in it. */
const NOT_A_PLACE: ReadonlySet<string> = new Set(['start', 'end', 'trigger']);

/** The zoom below which node labels stop being readable (a 220 px box drawn 165 px wide). */
export const LEGIBLE_ZOOM = 0.75;
export const MAX_ZOOM = 1.1;
/** Graph pixels kept around the active nodes (about a rank: the step before, the act after). */
const CONTEXT = 60;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** Ids of the graph's active nodes, in document order. */
export function activeNodeIds(graph: DesignerGraph, states: Readonly<Record<string, string>>): string[] {
  const ids: string[] = [];
  for (const node of graph.nodes) {
    const state = states[node.id];
    if (state !== undefined && isUnderWayName(state) && !NOT_A_PLACE.has(node.kind)) ids.push(node.id);
  }
  return ids;
}

function grown(rect: Rect, by: number): Rect {
  return { x: rect.x - by, y: rect.y - by, width: rect.width + 2 * by, height: rect.height + 2 * by };
}

function zoomToFit(rect: Rect, pane: { width: number; height: number }): number {
  return Math.min(pane.width / rect.width, pane.height / rect.height);
}

/** The viewport that shows the nodes of `ids` legibly in a pane of this size (null when none is laid out). */
export function viewportOn(layout: GraphLayout, ids: readonly string[], pane: { width: number; height: number }): Viewport | null {
  const all = boundsOf(layout, ids);
  if (!all) return null;
  let rect = grown(all, CONTEXT);
  if (zoomToFit(rect, pane) < LEGIBLE_ZOOM) rect = grown(boundsOf(layout, ids.filter((id) => layout.nodes[id]).slice(-1))!, CONTEXT);
  const zoom = Math.min(MAX_ZOOM, Math.max(LEGIBLE_ZOOM, zoomToFit(rect, pane)));
  return { zoom, x: pane.width / 2 - (rect.x + rect.width / 2) * zoom, y: pane.height / 2 - (rect.y + rect.height / 2) * zoom };
}
