/**
 * An error a person can act on: what happened (the server's message: a sentence about their input
 * for input problems), what to do (the hint of its code), the code itself with a Copy button for
 * support, and a retry button when a retry can help.
 */
import { toApiError } from '../data/api-error.ts';
import { Button } from './button.tsx';
import { CopyCode } from './copy-code.tsx';
import styles from './error-note.module.css';
import { Icon } from './icons.tsx';

export function ErrorNote({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const err = toApiError(error);
  return (
    <div role="alert" className={styles.note} data-code={err.code}>
      <Icon name="alert" size={18} className={styles.icon} />
      <div className={styles.body}>
        {title ? <p className={styles.title}>{title}</p> : null}
        <p>{err.message}</p>
        {err.hint ? <p className={styles.hint}>{err.hint}</p> : null}
        <CopyCode code={err.code} />
      </div>
      {onRetry ? (
        <Button size="sm" icon="refresh" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}
