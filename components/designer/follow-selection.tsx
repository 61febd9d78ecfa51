/**
 * Keeps the selected node in the designer's view (rendered inside FlowCanvas, so it reaches React
 * Flow): whenever the selection changes — a node an edit just made (a new step, a pasted or
 * duplicated act), a problem picked in the list, a node clicked at the edge — the view glides just
 * far enough to show it whole (view-showing.ts); a node already in view leaves the view alone.
 *
 * State: the node last followed, in a ref (the same selection is not followed again when only the
 * layout changed, so a user's own panning is not undone while they edit that node).
 */
'use client';
import { useEffect, useRef } from 'react';
import { useReactFlow, useStore } from '@xyflow/react';
import type { GraphLayout } from './model/index.ts';
import { viewShowing } from './view-showing.ts';

const GLIDE_MS = 200;

export function FollowSelection({ layout, selected }: { layout: GraphLayout; selected: string | null }) {
  const flow = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const followed = useRef<string | null>(null);

  useEffect(() => {
    if (selected === followed.current) return;
    const box = selected ? layout.nodes[selected] : undefined;
    if (selected && (!box || !width || !height)) return;
    followed.current = selected;
    if (!box) return;
    const view = viewShowing(box, flow.getViewport(), { width, height });
    if (view) void flow.setViewport(view, { duration: GLIDE_MS });
  }, [flow, layout, selected, width, height]);
  return null;
}
