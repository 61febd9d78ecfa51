/**
 * The comparison drawn on the graph with the shared FlowCanvas: `overlay` — one canvas, the new
 * version with the removed nodes ghosted where they were; `side` — the old and the new version
 * side by side, each marked. Read-only; a click selects a node (by its key, the same in both),
 * each canvas opens on the marked nodes and keeps the selected node in view.
 * Stateless: the comparison owns the mode and the selection.
 */
'use client';
import { useMemo } from 'react';
import { FollowSelection } from '../designer/follow-selection.tsx';
import { layout, type DesignerGraph } from '../designer/model/index.ts';
import { FlowCanvas } from '../graph/index.ts';
import { FollowActive } from '../runs/follow-active.tsx';
import styles from './compare.module.css';
import type { ComparisonGraphs, Marks } from './comparison-graphs.ts';

export type CompareMode = 'overlay' | 'side';

export interface CompareCanvasesProps {
  graphs: ComparisonGraphs;
  mode: CompareMode;
  labels: { before: string; after: string };
  selected: string | null;
  onSelect: (key: string | null) => void;
}

function Canvas({ graph, marks, label, selected, onSelect, side }: { graph: DesignerGraph; marks: Marks; label: string; selected: string | null; onSelect: (key: string | null) => void; side: string }) {
  const laidOut = useMemo(() => layout(graph), [graph]);
  // the view opens on the marked nodes (or, when they are too far apart to read, on the first one: the list's last)
  const marked = useMemo(() => graph.nodes.filter((n) => marks[n.id]).map((n) => n.id).reverse(), [graph, marks]);
  return (
    <figure className={styles.canvas} data-testid={`compare-canvas-${side}`}>
      <figcaption className={styles.caption}>{label}</figcaption>
      <div className={styles.canvasBody}>
        <FlowCanvas graph={graph} layout={laidOut} marks={marks} selected={selected} onSelect={onSelect} fitOnOpen={false} ariaLabel={`${label} graph`}>
          <FollowActive layout={laidOut} active={marked} follow={false} />
          <FollowSelection layout={laidOut} selected={selected} />
        </FlowCanvas>
      </div>
    </figure>
  );
}

export function CompareCanvases({ graphs, mode, labels, selected, onSelect }: CompareCanvasesProps) {
  if (mode === 'overlay') {
    return (
      <div className={styles.canvases} data-mode="overlay">
        <Canvas graph={graphs.overlay} marks={graphs.marks.overlay} label={`${labels.before} → ${labels.after}`} selected={selected} onSelect={onSelect} side="overlay" />
      </div>
    );
  }
  return (
    <div className={`${styles.canvases} ${styles.sideBySide}`} data-mode="side">
      <Canvas graph={graphs.before} marks={graphs.marks.before} label={labels.before} selected={selected} onSelect={onSelect} side="before" />
      <Canvas graph={graphs.after} marks={graphs.marks.after} label={labels.after} selected={selected} onSelect={onSelect} side="after" />
    </div>
  );
}
