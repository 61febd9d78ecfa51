/**
 * Runs started in the last 24 hours, counted by state (one cheap count per state), each linking to
 * the runs list; under `completed`, how many of them ended on a declared outcome (a rejection is
 * not an error).
 */
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

/** One count: runs in `state`; with `outcome`, only the completed runs that ended on a declared outcome (a part of `completed`, never of `error`). */
function StateCount({ state, from, top, outcome }: { state: string; from: number; top: number | null; outcome?: true }) {
  const count = useApiQuery('processes.list', { state, from, limit: 1, ...(outcome ? { outcome } : {}) }, { refetchInterval: REFRESH_MS, select: (d) => d.count });
  const n = count.data;
  const what = outcome ? 'runs that ended on a declared outcome' : `${state} runs`;
  return (
    <li className={styles.stateRow}>
      <Link href={`/runs?state=${state}`} className={styles.stateLink} aria-label={`${n ?? 'unknown'} ${what} in the last 24 hours`}>
        <StateBadge state={state} label={outcome ? 'of which ended on an outcome' : undefined} />
        <span className={styles.bar} aria-hidden="true">
          <span style={{ width: `${n && top ? Math.max(4, (n / top) * 100) : 0}%`, background: `var(--state-${state})` }} />
        </span>
        <span className={styles.count} data-testid={outcome ? 'runs-outcome' : `runs-${state}`}>
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
        {STATES.map((s) => [
          <StateCount key={s} state={s} from={from} top={all.data ?? null} />,
          s === 'completed' ? <StateCount key="outcome" state={s} outcome from={from} top={all.data ?? null} /> : null,
        ])}
      </ul>
    </section>
  );
}
