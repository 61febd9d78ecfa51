/**
 * The frame every graph node shares: the kind's box, the hidden handles edges attach to (the same
 * positions `flow-elements.ts` declares), the run state as colour + icon + label, the problem
 * badge, and a version comparison's mark (colour + corner sign, `data-diff`). Kind components
 * (`node-views.tsx`) fill in the content.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Handle, Position } from '@xyflow/react';
import { StateBadge } from '../ui/state-badge.tsx';
import { stateLook } from '../ui/states.ts';
import { HANDLE_SIDES, HANDLES, type FlowNodeData } from './flow-elements.ts';
import styles from './graph-nodes.module.css';
import { ProblemBadge } from './problem-badge.tsx';

export interface NodeFrameProps {
  data: FlowNodeData;
  selected: boolean;
  children: ReactNode;
}

/** Each handle's side and place along it, as `flow-elements.ts` declares them for `direction`. */
function handleLooks(direction: keyof typeof HANDLE_SIDES) {
  const sides = HANDLE_SIDES[direction];
  const look = (name: keyof typeof HANDLES) => {
    const [position, fx, fy] = sides[name];
    const style: CSSProperties = position === Position.Top || position === Position.Bottom ? { left: `${fx * 100}%` } : { top: `${fy * 100}%` };
    return { position, style };
  };
  return { in: look('in'), out: look('out'), backIn: look('backIn'), backOut: look('backOut') };
}

const HANDLE_LOOKS = { TB: handleLooks('TB'), LR: handleLooks('LR') };

/** The corner sign of a version comparison's mark (the colour says it too; the sign is for those who cannot tell colours apart). */
const DIFF_SIGNS: Record<NonNullable<FlowNodeData['mark']>, string> = { added: '+', removed: '−', changed: '~', moved: '↷' };

export function NodeFrame({ data, selected, children }: NodeFrameProps) {
  const { node, state, problems, dimmed, across, mark } = data;
  const handles = HANDLE_LOOKS[across ? 'LR' : 'TB'];
  const look = state === undefined ? undefined : stateLook(state);
  const colours = look ? ({ '--c': `var(--state-${look.state})`, '--c-bg': `var(--state-${look.state}-bg)` } as CSSProperties) : undefined;
  const classes = [styles.node, styles[node.kind], look && styles.stated, look && styles[look.variant], selected && styles.selected, problems && styles.invalid, dimmed && styles.dimmed, mark && styles.marked, mark && styles[`mark_${mark}`]];
  return (
    <div className={classes.filter(Boolean).join(' ')} style={colours} data-kind={node.kind} data-state={state} data-selected={selected || undefined} data-diff={mark} data-testid={`node-${node.id}`}>
      <Handle type="target" id={HANDLES.in} {...handles.in} className={styles.handle} isConnectable={false} />
      <Handle type="target" id={HANDLES.backIn} {...handles.backIn} className={styles.handle} isConnectable={false} />
      {children}
      {look ? (
        <span className={styles.state}>
          <StateBadge state={state!} />
        </span>
      ) : null}
      {mark ? (
        <span className={styles.diffMark} aria-hidden="true">
          {DIFF_SIGNS[mark]}
        </span>
      ) : null}
      {problems ? <ProblemBadge problems={problems} /> : null}
      <Handle type="source" id={HANDLES.out} {...handles.out} className={styles.handle} isConnectable={false} />
      <Handle type="source" id={HANDLES.backOut} {...handles.backOut} className={styles.handle} isConnectable={false} />
    </div>
  );
}
