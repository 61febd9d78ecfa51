/**
 * The run graph's view choices, over the canvas's top-right corner: follow the active step (while
 * the run runs), left to right, collapse the finished steps. Stateless: the graph owns the choices.
 */
'use client';
import { Panel } from '@xyflow/react';
import { Button } from '../ui/button.tsx';
import styles from './run.module.css';

export interface RunGraphToolbarProps {
  /** Shown while the run has not ended; null hides the button. */
  follow: boolean | null;
  onFollow: (on: boolean) => void;
  leftToRight: boolean;
  onLeftToRight: (on: boolean) => void;
  onCollapse: () => void;
}

export function RunGraphToolbar({ follow, onFollow, leftToRight, onLeftToRight, onCollapse }: RunGraphToolbarProps) {
  return (
    <Panel position="top-right" className={styles.graphTools} aria-label="Graph view">
      {follow === null ? null : (
        <Button size="sm" variant={follow ? 'primary' : 'secondary'} icon="activity" aria-pressed={follow} aria-label="Follow the active step" title="Keep the active step in view as the run goes on" onClick={() => onFollow(!follow)}>
          Follow
        </Button>
      )}
      <Button size="sm" aria-pressed={leftToRight} icon="send" title="Draw the flow from left to right" onClick={() => onLeftToRight(!leftToRight)}>
        Left to right
      </Button>
      <Button size="sm" icon="check" aria-label="Collapse finished steps" title="Fold each stretch of finished steps into one node" onClick={onCollapse}>
        Collapse finished
      </Button>
    </Panel>
  );
}
