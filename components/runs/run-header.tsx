/**
 * The run's title line: workflow name, live state, model and version, run id, start and duration
 * ("running for …", ticking; "took …" once it ended — also when the end came as a live event),
 * the actions (operators only), and — while the engine finds that nothing can move the run — why it
 * is stuck and what to do.
 */
'use client';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { WORKFLOW_TID } from '../../vocab/graph.ts';
import { isTerminalName } from '../../vocab/states.ts';
import { StateBadge } from '../ui/state-badge.tsx';
import { Duration } from './duration.tsx';
import { formatDateTime, formatDuration, runStateLabel } from './format.ts';
import type { RunStore } from './run-store.ts';
import styles from './run.module.css';
import { StuckBadge } from './stuck-badge.tsx';
import { useRunSlice } from './use-run.ts';

/** How long the run took, or has been running (ticking). */
function times(start: number, ended: boolean, end: number): ReactNode {
  if (ended) return end > 0 ? `took ${formatDuration(start, end)}` : 'ended';
  if (start <= 0) return 'not started yet';
  return (
    <>
      running for <Duration start={start} end={0} running />
    </>
  );
}

export function RunHeader({ store, actions }: { store: RunStore; actions: ReactNode }) {
  const proc = useRunSlice(store, (s) => s.process);
  // live process events carry no end time: an ended run's is its workflow task's
  const workflowEnd = useRunSlice(store, (s) => s.task(WORKFLOW_TID)?.end_time ?? 0);
  if (!proc) return null;
  const ended = isTerminalName(proc.state);
  const end = proc.end_time > 0 ? proc.end_time : workflowEnd;
  return (
    <header className={styles.header}>
      <div className={styles.headMain}>
        <h2 className={styles.runName} title={proc.name || proc.mid}>
          {proc.name || proc.mid}
        </h2>
        <span data-testid="run-state">
          <StateBadge state={proc.state} label={runStateLabel(proc)} />
        </span>
      </div>
      <p className={styles.muted}>
        <Link href={`/models/${encodeURIComponent(proc.mid)}`}>{proc.mid}</Link>
        {proc.model_ver ? ` v${proc.model_ver}` : ''} · run <span className={styles.mono}>{proc.pid}</span> · started {formatDateTime(proc.start_time)} ·{' '}
        <span data-testid="run-times">{times(proc.start_time, ended, end)}</span>
      </p>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
      {(proc.stuck_since ?? 0) > 0 && !isTerminalName(proc.state) ? (
        <p className={styles.stuck} role="note" data-testid="run-stuck">
          <StuckBadge since={proc.stuck_since!} />
          Nothing can move this process — no task waits for a person, no timer is armed, no job is queued, no subflow runs and no outbox record is open — since {formatDateTime(proc.stuck_since!)}; abort it.
        </p>
      ) : null}
    </header>
  );
}
