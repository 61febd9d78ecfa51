/**
 * The curved back edge of a `next` loop: it leaves the source on its right side, swings out to
 * the right of both nodes and comes back into the target's right side, so loops never cross the
 * main flow (left to right: the same below the nodes, bottom handles). Memoised like the nodes.
 */
import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, Position, type EdgeProps, type EdgeTypes } from '@xyflow/react';
import styles from './graph-nodes.module.css';

/** The path and the label's point of a loop from (sx, sy) back to (tx, ty). */
export function backPath(sx: number, sy: number, tx: number, ty: number): { path: string; labelX: number; labelY: number } {
  const reach = Math.max(sx, tx) + 50 + Math.min(140, Math.abs(sy - ty) * 0.12);
  const path = `M ${sx} ${sy} C ${reach} ${sy}, ${reach} ${ty}, ${tx} ${ty}`;
  return { path, labelX: sx + (reach - sx) * 0.75, labelY: (sy + ty) / 2 };
}

/** The same loop below the nodes (x ↔ y), for a flow that runs left to right. */
export function backPathBelow(sx: number, sy: number, tx: number, ty: number): { path: string; labelX: number; labelY: number } {
  const reach = Math.max(sy, ty) + 50 + Math.min(140, Math.abs(sx - tx) * 0.12);
  const path = `M ${sx} ${sy} C ${sx} ${reach}, ${tx} ${reach}, ${tx} ${ty}`;
  return { path, labelX: (sx + tx) / 2, labelY: sy + (reach - sy) * 0.75 };
}

export const BackEdge = memo(function BackEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, markerEnd, label }: EdgeProps) {
  const route = sourcePosition === Position.Bottom ? backPathBelow : backPath;
  const { path, labelX, labelY } = route(sourceX, sourceY, targetX, targetY);
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={styles.backEdge} />
      {label ? (
        <EdgeLabelRenderer>
          <span className={styles.edgeLabel} style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            {label}
          </span>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

export const EDGE_TYPES: EdgeTypes = { back: BackEdge };
