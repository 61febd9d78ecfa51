/**
 * The smallest move of the designer's view that shows a node whole: the zoom stays, the view
 * shifts just enough to bring the node's box inside the pane with a margin (a box larger than the
 * pane is centred). Pure, so the React part (follow-selection.tsx) only decides when to move.
 */
import type { NodeBox, Size } from './model/index.ts';

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** Pane pixels kept between a followed node and the pane's edge. */
export const FOLLOW_MARGIN = 48;

/** How far to shift along one axis so [start, end] (pane pixels) lies within [margin, size − margin]. */
function shift(start: number, end: number, size: number, margin: number): number {
  if (end - start > size - 2 * margin) return size / 2 - (start + end) / 2;
  if (start < margin) return margin - start;
  if (end > size - margin) return size - margin - end;
  return 0;
}

/** The viewport that shows `box` whole, or null when the current one already does. */
export function viewShowing(box: NodeBox, view: Viewport, pane: Size, margin = FOLLOW_MARGIN): Viewport | null {
  const left = box.x * view.zoom + view.x;
  const top = box.y * view.zoom + view.y;
  const dx = shift(left, left + box.width * view.zoom, pane.width, margin);
  const dy = shift(top, top + box.height * view.zoom, pane.height, margin);
  if (dx === 0 && dy === 0) return null;
  return { x: view.x + dx, y: view.y + dy, zoom: view.zoom };
}
