/**
 * The triggers of every deployed model: cron, timezone, next and last run with the last run's
 * outcome, enable/disable and fire now. No live room carries triggers, so the lists refresh
 * every 15 s (and after every change).
 */
'use client';
import { useApiQuery } from '../data/use-api.ts';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { useNow } from '../inbox/use-now.ts';
import styles from './schedules.module.css';
import { TriggerRow } from './trigger-row.tsx';

const REFRESH_MS = 15_000;

export function SchedulesTable() {
  const now = useNow(REFRESH_MS);
  const triggers = useApiQuery('triggers.list', { limit: 200 }, { refetchInterval: REFRESH_MS });
  const outcomes = useApiQuery('triggers.outcomes', {}, { refetchInterval: REFRESH_MS });
  if (triggers.error) return <ErrorNote error={triggers.error} title="The triggers could not be read" onRetry={() => triggers.refetch()} />;
  if (!triggers.data) return <Spinner label="Loading the triggers" />;
  if (triggers.data.rows.length === 0) {
    return (
      <EmptyState icon="calendar" title="No triggers yet">
        Add an <code>on:</code> entry to a workflow (for example <code>uses: acts.event.schedule</code> with a <code>cron</code>) and deploy it.
      </EmptyState>
    );
  }
  const byId = new Map((outcomes.data?.rows ?? []).map((o) => [o.id, o]));
  return (
    <div className={styles.wrap}>
      {outcomes.data?.failing ? (
        <p role="status" className={styles.alert}>
          {outcomes.data.failing === 1 ? '1 schedule is failing' : `${outcomes.data.failing} schedules are failing`}
        </p>
      ) : null}
      <table className={styles.table} aria-label="Triggers">
        <thead>
          <tr>
            <th scope="col">Trigger</th>
            <th scope="col">Cron</th>
            <th scope="col">Timezone</th>
            <th scope="col">Next run</th>
            <th scope="col">Last run</th>
            <th scope="col">Enabled</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {triggers.data.rows.map((row) => (
            <TriggerRow key={row.id} row={row} outcome={byId.get(row.id)} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
