/** Runs started in the last 24 hours, counted by state (one cheap count per state), each linking to the runs list. */
'use client';
import Link from 'next/link';
import { useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { StateBadge } from '../ui/state-badge.tsx';
import styles from './overview.module.css';
import { LISTED_PROC_STATES } from '../../vocab/states.ts';

/** Parked runs (`none`) are left out: they have not started. */
const STATES = LISTED_PROC_STATES.filter((s) => s !== 'none');
const DAY_MS = 24 * 3600_000;
const REFRESH_MS = 30_000;

function StateCount({ state, from, top }: { state: string; from: number; top: number | null }) {
  const count = useApiQuery('processes.list', { state, from, limit: 1 }, { refetchInterval: REFRESH_MS, select: (d) => d.count });
  const n = count.data;
  return (
    <li className={styles.stateRow}>
      <Link href={`/runs?state=${state}`} className={styles.stateLink} aria-label={`${n ?? 'unknown'} ${state} runs in the last 24 hours`}>
        <StateBadge state={state} />
        <span className={styles.bar} aria-hidden="true">
          <span style={{ width: `${n && top ? Math.max(4, (n / top) * 100) : 0}%`, background: `var(--state-${state})` }} />
        </span>
        <span className={styles.count} data-testid={`runs-${state}`}>
          {n ?? '…'}
        </span>
      </Link>
    </li>
  );
}

export function RunsByState() {
  const [from] = useState(() => Date.now() - DAY_MS);
  const all = useApiQuery('processes.list', { from, limit: 1 }, { refetchInterval: REFRESH_MS, select: (d) => d.count });
  return (
    <section className={styles.card} aria-labelledby="runs-title">
      <h2 id="runs-title" className={styles.cardTitle}>
        Runs in the last 24 hours <span className={styles.muted}>{all.data ?? ''}</span>
      </h2>
      <ul className={styles.states}>
        {STATES.map((s) => (
          <StateCount key={s} state={s} from={from} top={all.data ?? null} />
        ))}
      </ul>
    </section>
  );
}
