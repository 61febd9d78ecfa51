/** The inbox's task list: one button per task (workflow, step, title, waiting time, who else may answer). */
'use client';
import { Icon } from '../ui/icons.tsx';
import { formText } from './form-fields.ts';
import styles from './inbox-list.module.css';
import type { InboxRow } from './use-inbox-list.ts';
import { waited } from './waited.ts';
import { whoAnswers } from './who-answers.ts';

export const taskKey = (row: { pid: string; tid: string }) => `${row.pid}/${row.tid}`;

interface InboxListProps {
  rows: InboxRow[];
  /** The row the keyboard cursor is on (j/k). */
  cursor: string | null;
  /** The row whose form is open. */
  opened: string | null;
  me: string;
  now: number;
  onOpen: (row: InboxRow) => void;
  onFocusRow: (key: string) => void;
}

export function InboxList({ rows, cursor, opened, me, now, onOpen, onFocusRow }: InboxListProps) {
  return (
    <ul className={styles.list} aria-label="Tasks waiting for you">
      {rows.map((row) => {
        const key = taskKey(row);
        const step = row.step?.name ?? row.name ?? row.key;
        const { title } = formText(row.params, step);
        return (
          <li key={key}>
            <button
              type="button"
              className={styles.row}
              data-task={key}
              data-cursor={cursor === key || undefined}
              aria-current={opened === key ? 'true' : undefined}
              onClick={() => onOpen(row)}
              onFocus={() => onFocusRow(key)}
            >
              <span className={styles.top}>
                <span className={styles.model}>{row.model_name || row.mid}</span>
                <span className={styles.waited} title={new Date(row.start_time).toLocaleString()}>
                  <Icon name="clock" size={12} /> {waited(row.start_time, now)}
                </span>
              </span>
              <span className={styles.title}>{title}</span>
              <span className={styles.meta}>
                <span>Step: {step}</span>
                <span>
                  <Icon name="person" size={12} /> {whoAnswers(row.assignment, me)}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
