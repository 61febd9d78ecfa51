/** Every task state as its badge, so people learn the colours and icons once. */
import styles from './state-legend.module.css';
import { StateBadge } from './state-badge.tsx';
import { SHOWN_STATES } from './states.ts';

export function StateLegend() {
  return (
    <section className={styles.legend} aria-labelledby="state-legend-title">
      <h2 id="state-legend-title" className={styles.title}>
        What the states mean
      </h2>
      <ul className={styles.list}>
        {SHOWN_STATES.map((state) => (
          <li key={state}>
            <StateBadge state={state} />
          </li>
        ))}
      </ul>
    </section>
  );
}
