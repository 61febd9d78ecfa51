/** The run's errors: the process error and every task in `error` (code and message); a task opens its details. */
'use client';
import { ErrorReason } from './error-reason.tsx';
import type { RunStore } from './run-store.ts';
import styles from './run.module.css';
import { useRunSlice } from './use-run.ts';

function processError(err: unknown): { ecode: string; message: string } | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { ecode?: unknown; message?: unknown };
  return typeof e.ecode === 'string' ? { ecode: e.ecode, message: typeof e.message === 'string' ? e.message : '' } : null;
}

export function RunErrors({ store, onSelect }: { store: RunStore; onSelect: (tid: string) => void }) {
  const errors = useRunSlice(store, (s) => s.errors);
  const proc = processError(useRunSlice(store, (s) => s.process?.err));
  if (!errors.length && !proc) return null;
  return (
    <section className={styles.errors} aria-label="Errors" data-testid="run-errors">
      <h3>Errors</h3>
      {proc ? (
        <p>
          The run ended with <ErrorReason err={proc} />
        </p>
      ) : null}
      <ul>
        {errors.map((task) => (
          <li key={task.tid}>
            <button type="button" className={styles.linkButton} onClick={() => onSelect(task.tid)}>
              {task.name || task.key}
            </button>
            {task.err ? (
              <span>
                {' '}
                <ErrorReason err={task.err} />
              </span>
            ) : (
              <span className={styles.muted}> (reading the error…)</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
