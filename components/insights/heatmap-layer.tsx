/**
 * The heatmap on the canvas (a child of FlowCanvas): each node with figures gets a frame and a
 * tint in the colour of its value (heat-scale.ts) and a chip above it with the chosen metric and
 * all its figures; the figures also ride on data-* attributes (`data-now`, `data-passed`, …).
 */
'use client';
import type { CSSProperties } from 'react';
import type { GraphLayout } from '../designer/model/index.ts';
import { figuresLine, formatMetric, heatColour, metricValue } from './heat-scale.ts';
import styles from './insights.module.css';
import { NodeOverlays, OnNode } from './on-node.tsx';
import type { Heatmap } from './use-heatmap.ts';

export function HeatmapLayer({ heat, layout }: { heat: Heatmap; layout: GraphLayout }) {
  if (!heat.on || heat.figures.size === 0) return null;
  return (
    <NodeOverlays>
      {[...heat.figures].map(([nodeId, f]) => {
        const value = metricValue(f, heat.metric);
        const attributes = { 'data-testid': `heat-${nodeId}`, 'data-now': f.now, 'data-passed': f.passed, 'data-errors': f.errors, 'data-p50': f.p50 ?? undefined, 'data-p95': f.p95 ?? undefined };
        return (
          <OnNode key={nodeId} layout={layout} nodeId={nodeId} className={styles.heat} style={{ '--heat': heatColour(value, heat.max) } as CSSProperties} attributes={attributes}>
            <span className={styles.chip} title={figuresLine(f)}>
              <b>{formatMetric(value, heat.metric)}</b> · {figuresLine(f)}
            </span>
          </OnNode>
        );
      })}
    </NodeOverlays>
  );
}
