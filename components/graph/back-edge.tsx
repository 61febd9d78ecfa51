/**
 * The curved back edge of a `next` loop: it leaves the source on its right side, swings out to
 * the right of both nodes and comes back into the target's right side, so loops never cross the
 * main flow. Memoised like the nodes.
 */
import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, type EdgeTypes } from '@xyflow/react';
import styles from './graph-nodes.module.css';

/** The path and the label's point of a loop from (sx, sy) back to (tx, ty). */
export function backPath(sx: number, sy: number, tx: number, ty: number): { path: string; labelX: number; labelY: number } {
  const reach = Math.max(sx, tx) + 50 + Math.min(140, Math.abs(sy - ty) * 0.12);
  const path = `M ${sx} ${sy} C ${reach} ${sy}, ${reach} ${ty}, ${tx} ${ty}`;
  return { path, labelX: sx + (reach - sx) * 0.75, labelY: (sy + ty) / 2 };
}

export const BackEdge = memo(function BackEdge({ id, sourceX, sourceY, targetX, targetY, markerEnd, label }: EdgeProps) {
  const { path, labelX, labelY } = backPath(sourceX, sourceY, targetX, targetY);
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
