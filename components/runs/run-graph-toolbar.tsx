/**
 * The run graph's view choices, in a bar above the canvas (over it, they would hide nodes): follow
 * the active step (while the run runs), left to right, collapse the finished steps (when some
 * could fold). Stateless: the graph owns the choices.
 */
'use client';
import { Button } from '../ui/button.tsx';
import styles from './run.module.css';

export interface RunGraphToolbarProps {
  /** Shown while the run has not ended; null hides the button. */
  follow: boolean | null;
  onFollow: (on: boolean) => void;
  leftToRight: boolean;
  onLeftToRight: (on: boolean) => void;
  /** Null hides the button (nothing to fold). */
  onCollapse: (() => void) | null;
}

export function RunGraphToolbar({ follow, onFollow, leftToRight, onLeftToRight, onCollapse }: RunGraphToolbarProps) {
  return (
    <div role="toolbar" className={styles.graphTools} aria-label="Graph view">
      {follow === null ? null : (
        <Button size="sm" variant={follow ? 'primary' : 'secondary'} icon="activity" aria-pressed={follow} aria-label="Follow the active step" title="Keep the active step in view as the run goes on" onClick={() => onFollow(!follow)}>
          Follow
        </Button>
      )}
      <Button size="sm" aria-pressed={leftToRight} icon="send" title="Draw the flow from left to right" onClick={() => onLeftToRight(!leftToRight)}>
        Left to right
      </Button>
      {onCollapse ? (
        <Button size="sm" icon="check" aria-label="Collapse finished steps" title="Fold each stretch of finished steps into one node" onClick={onCollapse}>
          Collapse finished
        </Button>
      ) : null}
    </div>
  );
}
