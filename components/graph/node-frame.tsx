/**
 * The frame every graph node shares: the kind's box, the hidden handles edges attach to (the same
 * positions `flow-elements.ts` declares), the run state as colour + icon + label, and the problem
 * badge. Kind components (`node-views.tsx`) fill in the content.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Handle, Position } from '@xyflow/react';
import { StateBadge } from '../ui/state-badge.tsx';
import { stateLook } from '../ui/states.ts';
import { HANDLES, type FlowNodeData } from './flow-elements.ts';
import styles from './graph-nodes.module.css';
import { ProblemBadge } from './problem-badge.tsx';

export interface NodeFrameProps {
  data: FlowNodeData;
  selected: boolean;
  children: ReactNode;
}

const HANDLE_STYLE = { back: { top: '30%' }, backOut: { top: '70%' } } satisfies Record<string, CSSProperties>;

export function NodeFrame({ data, selected, children }: NodeFrameProps) {
  const { node, state, problems, dimmed } = data;
  const look = state === undefined ? undefined : stateLook(state);
  const colours = look ? ({ '--c': `var(--state-${look.state})`, '--c-bg': `var(--state-${look.state}-bg)` } as CSSProperties) : undefined;
  const classes = [styles.node, styles[node.kind], look && styles.stated, look && styles[look.variant], selected && styles.selected, problems && styles.invalid, dimmed && styles.dimmed];
  return (
    <div className={classes.filter(Boolean).join(' ')} style={colours} data-kind={node.kind} data-state={state} data-selected={selected || undefined} data-testid={`node-${node.id}`}>
      <Handle type="target" id={HANDLES.in} position={Position.Top} className={styles.handle} isConnectable={false} />
      <Handle type="target" id={HANDLES.backIn} position={Position.Right} className={styles.handle} style={HANDLE_STYLE.back} isConnectable={false} />
      {children}
      {look ? (
        <span className={styles.state}>
          <StateBadge state={state!} />
        </span>
      ) : null}
      {problems ? <ProblemBadge problems={problems} /> : null}
      <Handle type="source" id={HANDLES.out} position={Position.Bottom} className={styles.handle} isConnectable={false} />
      <Handle type="source" id={HANDLES.backOut} position={Position.Right} className={styles.handle} style={HANDLE_STYLE.backOut} isConnectable={false} />
    </div>
  );
}
