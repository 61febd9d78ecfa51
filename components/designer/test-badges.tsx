/**
 * The step-test marks on the designer's canvas (a child of FlowCanvas, drawn with the node
 * overlays of insights/on-node.tsx): a small pill under each marked node's bottom left corner —
 * passed, failed, waiting — clear of the heatmap's chip above the node and of the outgoing edge.
 */
'use client';
import { NodeOverlays, OnNode } from '../insights/on-node.tsx';
import type { GraphLayout } from './model/index.ts';
import type { TestMark } from './step-test-marks.ts';
import styles from './step-tests.module.css';

const SIGN: Record<TestMark['tone'], string> = { pass: '✓', fail: '✗', wait: '…' };

export function TestBadges({ layout, marks }: { layout: GraphLayout; marks: Readonly<Record<string, TestMark>> }) {
  const shown = Object.entries(marks).filter(([id]) => layout.nodes[id]);
  if (shown.length === 0) return null;
  return (
    <NodeOverlays>
      {shown.map(([id, mark]) => (
        <OnNode key={id} layout={layout} nodeId={id} attributes={{ 'data-testid': 'test-badge', 'data-node': id, 'data-tone': mark.tone }}>
          <span className={`${styles.badge} ${styles.mark} ${styles[mark.tone]}`}>
            {SIGN[mark.tone]} {mark.label}
          </span>
        </OnNode>
      ))}
    </NodeOverlays>
  );
}
