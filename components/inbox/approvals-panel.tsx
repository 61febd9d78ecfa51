/**
 * The signed-in user's own recent approvals that can still be withdrawn (the next step has not
 * acted yet): each with what it approved (the task's title and the answer given) and a Withdraw
 * button (`tasks.cancel`), which re-opens the step.
 */
'use client';
import { useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { formText } from './form-fields.ts';
import styles from './inbox-view.module.css';
import { ValueText, type ContextList } from './task-context.tsx';
import { useTaskAction } from './use-task-action.ts';
import { ago } from './waited.ts';

type Approval = { pid: string; tid: string; key: string; model_name: string; step: { name: string }; next: Array<{ name: string }>; end_time: number; params?: unknown; answer?: ContextList };

export function ApprovalsPanel({ now }: { now: number }) {
  const approvals = useApiQuery('inbox.approvals', undefined);
  const rows = approvals.data?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <section className={styles.approvals} aria-labelledby="own-approvals">
      <h2 id="own-approvals" className={styles.sectionTitle}>
        Your approvals you can still withdraw
      </h2>
      <ul className={styles.approvalList}>
        {rows.map((row) => (
          <ApprovalRow key={`${row.pid}/${row.tid}`} row={row} now={now} />
        ))}
      </ul>
    </section>
  );
}

function ApprovalRow({ row, now }: { row: Approval; now: number }) {
  const action = useTaskAction(row, () => undefined);
  const label = `${row.model_name} · ${row.step.name}`;
  const answer = Object.entries(row.answer?.values ?? {});
  return (
    <li className={styles.approval}>
      <span>
        <strong>{label}</strong>
        <span className={styles.muted}>
          {' '}
          approved {ago(row.end_time, now)} · next: {row.next.map((n) => n.name).join(', ')} has not acted
        </span>
      </span>
      <span className={styles.approved} aria-label={`What you approved in ${label}`}>
        {formText(row.params, row.step.name).title}
        {answer.map(([key, value]) => (
          <span key={key} className={styles.muted}>
            {' · '}
            {key}: <ValueText value={value} />
          </span>
        ))}
        {row.answer && row.answer.omitted > 0 ? <span className={styles.muted}> · and {row.answer.omitted} more</span> : null}
      </span>
      <Button size="sm" icon="undo" busy={action.busy === 'cancel'} onClick={() => void action.send('cancel')} aria-label={`Withdraw approval of ${label}`}>
        Withdraw
      </Button>
      {action.error ? <ErrorNote error={action.error} title="The approval could not be withdrawn" /> : null}
    </li>
  );
}
