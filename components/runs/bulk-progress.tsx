/**
 * A bulk action's progress and results (use-bulk-job.ts): a progress bar with how many runs are
 * through, the counts by result, and the runs' results (refused ones first, at most SHOWN; each
 * links to its run). When it has ended `onEnded` runs once (the list reads again).
 */
'use client';
import Link from 'next/link';
import { useEffect } from 'react';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { BULK_ACTIONS, type BulkActionName, type BulkOutcome, type BulkRunResult } from '../../vocab/bulk-actions.ts';
import styles from './bulk.module.css';
import { useBulkJob } from './use-bulk-job.ts';

const SHOWN = 500;
const ORDER: Readonly<Record<BulkOutcome, number>> = { refused: 0, done: 1, skipped: 2 };

/** What a run's result reads as for `action`. */
function outcomeWord(action: BulkActionName, result: BulkRunResult): string {
  const traits = BULK_ACTIONS[action];
  return result.outcome === 'done' ? traits.done : result.outcome === 'skipped' ? traits.skipped : `refused (${result.code ?? 'unknown'})`;
}

export function BulkProgress({ job, action, onEnded, onClose }: { job: string; action: BulkActionName; onEnded: () => void; onClose: () => void }) {
  const { status, results, done, error } = useBulkJob(job);
  useEffect(() => {
    if (done) onEnded();
  }, [done, onEnded]);
  const traits = BULK_ACTIONS[action];
  const total = status?.total ?? 0;
  const processed = status?.processed ?? 0;
  const shown = [...results].sort((a, b) => ORDER[a.outcome] - ORDER[b.outcome]).slice(0, SHOWN);
  return (
    <section className={styles.progress} aria-label={`Bulk ${action}`} data-job={job} data-state={done ? 'done' : 'running'}>
      <header className={styles.progressHead}>
        <strong>
          {traits.label} {total === 1 ? '1 run' : `${total} runs`}: {done ? 'done' : 'working…'}
        </strong>
        {done ? (
          <Button size="sm" variant="ghost" onClick={onClose}>
            Close
          </Button>
        ) : null}
      </header>
      <progress className={styles.meter} aria-label={`Bulk ${action} progress`} value={processed} max={Math.max(total, 1)} />
      <p className={styles.counts} aria-live="polite">
        {processed} of {total} through — <span data-count="done">{status?.counts.done ?? 0} {traits.done}</span>, <span data-count="skipped">{status?.counts.skipped ?? 0} {traits.skipped}</span>,{' '}
        <span data-count="refused">{status?.counts.refused ?? 0} refused</span>
        {status && status.busyRetries > 0 && !done ? ` (the engine is busy: waiting and trying again)` : null}
      </p>
      {error ? <ErrorNote error={error} title="The progress could not be read" /> : null}
      {shown.length > 0 ? (
        <ul className={styles.results} aria-label="Results by run">
          {shown.map((r) => (
            <li key={r.pid} data-pid={r.pid} data-outcome={r.outcome} title={r.message}>
              <Link href={`/runs/${encodeURIComponent(r.pid)}`} className={styles.pid}>
                {r.pid}
              </Link>
              <span className={r.outcome === 'refused' ? styles.refused : styles.outcome}>{outcomeWord(action, r)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {results.length > SHOWN ? <p className={styles.counts}>The first {SHOWN} of {results.length} results are shown (refused ones first); every run is in the audit log.</p> : null}
    </section>
  );
}
