/**
 * What people did to a task (`tasks.history`: its audit entries, newest first): answers, claims,
 * releases, delegations and reassignments — who, when, to whom —, votes, and refusals with their
 * codes; and the task's escalations (by its timeout rules).
 * Read again whenever the run's live store sees the task change (`version`); shown for acts.
 */
'use client';
import { useApiQuery } from '../data/use-api.ts';
import { formatTime } from './format.ts';
import { ESCALATE_ACTION } from '../../vocab/escalations.ts';
import { useRefetchOnChange } from './use-refetch-on-change.ts';
import styles from './run.module.css';

/** One entry in words: "carol claimed it", "ann delegated it to dave", "dave approved it: “fine”", "erin: completed — refused (inbox.held)". */
function sentence(e: { actor_name: string; action: string; result: string; to: unknown; text: string | null; decision?: string | null }): string {
  const verb = e.action.replace(/^task\./, '');
  const to = typeof e.to === 'string' ? ` to ${e.to}` : e.to === null && verb === 'reassign' ? ' to no one' : '';
  const words: Record<string, string> = {
    claim: 'claimed it',
    release: 'released it',
    delegate: `delegated it${to}`,
    reassign: `reassigned it${to}`,
    propose: 'proposed an answer',
    complete: 'completed it',
    outcome: 'answered it',
    error: 'rejected it',
    back: 'sent it back',
    skip: 'skipped it',
    cancel: 'withdrew it',
    comment: `commented: “${e.text ?? ''}”`,
    vote: `${e.decision === 'reject' ? 'rejected' : 'approved'} it${e.text ? `: “${e.text}”` : ''}`,
  };
  if (e.action === ESCALATE_ACTION) return `${e.text ?? 'Escalated'} (by ${e.actor_name})`;
  const what = words[verb] ?? verb;
  return e.result === 'ok' ? `${e.actor_name} ${what}` : `${e.actor_name} tried: ${verb} — refused (${e.result})`;
}

export function TaskHistory({ pid, tid, version }: { pid: string; tid: string; version: unknown }) {
  const read = useApiQuery('tasks.history', { pid, tid }, { refetchOnWindowFocus: false });
  useRefetchOnChange(read.refetch, version);
  const rows = read.data?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <div className={styles.history}>
      <h4>History</h4>
      <ol aria-label="Task history">
        {rows.map((e) => (
          <li key={e.id} data-action={e.action}>
            <time>{formatTime(e.time)}</time> {sentence(e)}
          </li>
        ))}
      </ol>
    </div>
  );
}
