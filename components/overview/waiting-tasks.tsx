/** The tasks waiting for the signed-in operator (the newest few, live) and how many are overdue, linking to the inbox. */
'use client';
import Link from 'next/link';
import { liveRoom, useLiveRefetch } from '../data/live.tsx';
import { useApiQuery } from '../data/use-api.ts';
import { formText } from '../inbox/form-fields.ts';
import { useNow } from '../inbox/use-now.ts';
import { waited } from '../inbox/waited.ts';
import styles from './overview.module.css';

const SHOWN = 5;

export function WaitingTasks() {
  const now = useNow();
  const inbox = useApiQuery('inbox.list', { limit: SHOWN, newestFirst: true });
  useLiveRefetch(inbox.data ? liveRoom.inbox : null, inbox.data?.cursor ?? null, ['inbox.list']);
  const overdue = useApiQuery('inbox.list', { limit: 1, overdue: true }, { refetchInterval: 60_000, select: (d) => d.count });
  const count = inbox.data?.count ?? 0;
  return (
    <section className={styles.card} aria-labelledby="waiting-title">
      <h2 id="waiting-title" className={styles.cardTitle}>
        Tasks waiting for you <span className={styles.muted} data-testid="waiting-count">{inbox.data ? count : ''}</span>
      </h2>
      {overdue.data ? (
        <p className={styles.overdue} data-testid="overdue-count">
          <Link href="/inbox">{overdue.data === 1 ? '1 task is overdue' : `${overdue.data} tasks are overdue`}</Link>
        </p>
      ) : null}
      {inbox.data && count === 0 ? <p className={styles.muted}>Nothing waits for you.</p> : null}
      <ul className={styles.list}>
        {(inbox.data?.rows ?? []).map((row) => (
          <li key={`${row.pid}/${row.tid}`}>
            <Link href="/inbox">{formText(row.params, row.name || row.key).title}</Link>
            <span className={styles.muted}>
              {' '}
              {row.model_name} · {waited(row.start_time, now)}
            </span>
          </li>
        ))}
      </ul>
      {count > 0 ? <Link href="/inbox">Open the inbox{count > SHOWN ? ` (${count})` : ''}</Link> : null}
    </section>
  );
}
