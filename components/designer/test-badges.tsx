/**
 * The step-test marks on the designer's canvas (rendered inside FlowCanvas): a small pill at the
 * top right corner of each marked node — passed, failed, waiting — placed in the flow's own
 * coordinates so it pans and zooms with the node.
 */
'use client';
import { ViewportPortal } from '@xyflow/react';
import type { GraphLayout } from './model/index.ts';
import type { TestMark } from './step-test-marks.ts';
import styles from './step-tests.module.css';

export function TestBadges({ layout, marks }: { layout: GraphLayout; marks: Readonly<Record<string, TestMark>> }) {
  const shown = Object.entries(marks).filter(([id]) => layout.nodes[id]);
  if (shown.length === 0) return null;
  return (
    <ViewportPortal>
      {shown.map(([id, mark]) => {
        const box = layout.nodes[id];
        return (
          <span
            key={id}
            className={`${styles.badge} ${styles.mark} ${styles[mark.tone]}`}
            style={{ left: box.x + box.width, top: box.y }}
            data-testid="test-badge"
            data-node={id}
            data-tone={mark.tone}
          >
            {mark.tone === 'pass' ? '✓ ' : mark.tone === 'fail' ? '✗ ' : '… '}
            {mark.label}
          </span>
        );
      })}
    </ViewportPortal>
  );
}
