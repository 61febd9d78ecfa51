/** Schedules whose last run failed or that are overdue, each with the reason, linking to the schedules page. */
'use client';
import Link from 'next/link';
import { useApiQuery } from '../data/use-api.ts';
import { Icon } from '../ui/icons.tsx';
import styles from './overview.module.css';

export function FailingSchedules() {
  const outcomes = useApiQuery('triggers.outcomes', {}, { refetchInterval: 60_000 });
  const failing = (outcomes.data?.rows ?? []).filter((o) => o.failing);
  return (
    <section className={styles.card} aria-labelledby="failing-title">
      <h2 id="failing-title" className={styles.cardTitle}>
        Failing schedules <span className={styles.muted}>{outcomes.data ? failing.length : ''}</span>
      </h2>
      {outcomes.data && failing.length === 0 ? (
        <p className={styles.ok}>
          <Icon name="check" size={14} /> {outcomes.data.count === 0 ? 'No schedules are deployed.' : `All ${outcomes.data.count} schedules ran fine.`}
        </p>
      ) : null}
      <ul className={styles.list}>
        {failing.map((o) => (
          <li key={o.id}>
            <Link href="/schedules">{o.name || o.id}</Link> <span className={styles.bad}>{o.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
