/** Every task state as its badge, so people learn the colours and icons once. */
import type { TaskState } from '../../server/engine/states.ts';
import styles from './state-legend.module.css';
import { StateBadge } from './state-badge.tsx';

const ORDER: TaskState[] = ['ready', 'pending', 'running', 'interrupted', 'completed', 'skipped', 'submitted', 'backed', 'cancelled', 'error', 'aborted', 'removed'];

export function StateLegend() {
  return (
    <section className={styles.legend} aria-labelledby="state-legend-title">
      <h2 id="state-legend-title" className={styles.title}>
        What the states mean
      </h2>
      <ul className={styles.list}>
        {ORDER.map((state) => (
          <li key={state}>
            <StateBadge state={state} />
          </li>
        ))}
      </ul>
    </section>
  );
}
