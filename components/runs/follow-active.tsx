/**
 * Moves the run graph's view (rendered inside FlowCanvas, so it reaches React Flow): on open to the
 * active region (active-region.ts), or the whole graph when nothing is active; after that, the
 * same whenever the layout changes (collapse, expand, direction), and — while `follow` is on — to
 * the active region whenever the active nodes change or following is turned back on (a moment with
 * nothing active, between two steps, leaves the view where it is). Moves after the first glide
 * (400 ms); the first is instant. With nothing active the view fits what `fitView` fitted
 * (graph/view-window.ts `openingBounds`), from the layout: `fitView` hands every node to the canvas
 * again, ~20-50 ms on a 5,000-node run.
 *
 * State: `opened` (the first move is done) and the layout of the last move, in refs.
 */
'use client';
import { useEffect, useRef } from 'react';
import { getViewportForBounds, useReactFlow, useStore } from '@xyflow/react';
import type { GraphLayout } from '../designer/model/index.ts';
import { drawsEveryNode, openingBounds } from '../graph/index.ts';
import { MAX_ZOOM, viewportOn } from './active-region.ts';

export interface FollowActiveProps {
  layout: GraphLayout;
  /** The active nodes' ids, in document order. */
  active: readonly string[];
  follow: boolean;
}

const GLIDE_MS = 400;

export function FollowActive({ layout, active, follow }: FollowActiveProps) {
  const flow = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const minZoom = useStore((s) => s.minZoom);
  const opened = useRef(false);
  const movedFor = useRef<GraphLayout | null>(null);
  const activeKey = active.join(' ');
  const activeNow = useRef(active);
  activeNow.current = active;

  useEffect(() => {
    if (!width || !height) return;
    const relaid = !opened.current || movedFor.current !== layout;
    if (!relaid && !follow) return;
    const view = viewportOn(layout, activeNow.current, { width, height });
    // between two steps nothing is active for a moment: the view stays where it is
    if (!view && !relaid) return;
    const duration = opened.current ? GLIDE_MS : 0;
    opened.current = true;
    movedFor.current = layout;
    const all = view ? null : openingBounds(layout, { width, height }, drawsEveryNode(Object.keys(layout.nodes).length));
    if (view) void flow.setViewport(view, { duration });
    else if (all) void flow.setViewport(getViewportForBounds(all, width, height, minZoom, MAX_ZOOM, 0.15), { duration });
  }, [flow, layout, activeKey, follow, width, height, minZoom]);
  return null;
}
