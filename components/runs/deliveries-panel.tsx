/**
 * The run's message deliveries (to channels): each with its status and retries; a waiting one may
 * be acknowledged, failed ones retried (`messages.redo` puts every failed delivery back in the
 * queue). Refreshed when the run's room has news. Shown only when the run has deliveries.
 */
'use client';
import { liveRoom, useLiveRefetch } from '../data/live.tsx';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import styles from './run.module.css';
import type { DeliveryStatus, TaskState } from '../../vocab/states.ts';

/** The task state whose look a delivery status borrows. */
const STATUS_LOOK: Record<DeliveryStatus, TaskState> = { created: 'pending', acked: 'running', completed: 'completed', error: 'error' };

export function DeliveriesPanel({ pid, cursor, canOperate }: { pid: string; cursor: number | null; canOperate: boolean }) {
  const list = useApiQuery('messages.deliveries', { pid, offset: 0, limit: 100 });
  useLiveRefetch(liveRoom.proc(pid), cursor, ['messages.deliveries']);
  const redo = useApiMutation('messages.redo', { invalidates: ['messages.deliveries'] });
  const ack = useApiMutation('messages.ack', { invalidates: ['messages.deliveries'] });
  const rows = list.data?.rows ?? [];
  if (!rows.length) return null;
  const failed = rows.filter((d) => d.status === 'error').length;
  return (
    <section className={styles.deliveries} aria-label="Deliveries">
      <header className={styles.panelHead}>
        <h3>Deliveries</h3>
        {canOperate && failed > 0 ? (
          <Button size="sm" icon="refresh" busy={redo.isPending} onClick={() => redo.mutate({})} title="Puts every failed delivery (of every run) back in the queue">
            Retry {failed} failed
          </Button>
        ) : null}
      </header>
      {redo.error ? <ErrorNote error={redo.error} title="The deliveries were not retried" /> : null}
      {ack.error ? <ErrorNote error={ack.error} title="The delivery was not acknowledged" /> : null}
      <ul>
        {rows.map((d) => (
          <li key={d.id}>
            <StateBadge state={STATUS_LOOK[d.status] ?? d.status} label={d.status} />
            <span className={styles.mono}>{d.chan_id}</span>
            <span className={styles.muted}>{d.retry_times} retries</span>
            {canOperate && d.status === 'created' ? (
              <Button size="sm" variant="ghost" busy={ack.isPending && ack.variables?.id === d.id} onClick={() => ack.mutate({ id: d.id })}>
                Acknowledge
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
