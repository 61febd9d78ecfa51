/**
 * Decorations drawn over graph nodes without touching the node components: `NodeOverlays` is a
 * child of FlowCanvas that renders in React Flow's viewport (`ViewportPortal`, flow coordinates),
 * and `OnNode` places one decoration on a node's box from the layout. They let no pointer event
 * through to themselves, so the nodes under them stay clickable.
 */
'use client';
import type { CSSProperties, ReactNode } from 'react';
import { ViewportPortal } from '@xyflow/react';
import type { GraphLayout } from '../designer/model/index.ts';
import styles from './insights.module.css';

export function NodeOverlays({ children }: { children: ReactNode }) {
  return <ViewportPortal>{children}</ViewportPortal>;
}

export interface OnNodeProps {
  layout: GraphLayout;
  nodeId: string;
  className?: string;
  style?: CSSProperties;
  /** Extra attributes (test ids, figures as data-*). */
  attributes?: Record<string, string | number | undefined>;
  children?: ReactNode;
}

/** One decoration over the box of `nodeId` (nothing when the layout has no such node). */
export function OnNode({ layout, nodeId, className, style, attributes, children }: OnNodeProps) {
  const box = layout.nodes[nodeId];
  if (!box) return null;
  const placed: CSSProperties = { transform: `translate(${box.x}px, ${box.y}px)`, width: box.width, height: box.height, ...style };
  return (
    <div className={`${styles.onNode} ${className ?? ''}`} style={placed} {...attributes}>
      {children}
    </div>
  );
}
