/**
 * One decision for the ticked inbox tasks (`inbox.decideMany`): approve them all, or reject them
 * all with one error code; then how many went through and, for each that did not (answered
 * elsewhere meanwhile, held by another …), why, with its code. State: the reject panel's ecode and
 * the mutation's result.
 */
'use client';
import { useId, useState } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './inbox-view.module.css';

type Task = { pid: string; tid: string };

const SHOWN = 20;

export function BulkDecisionBar({ tasks, onClear }: { tasks: Task[]; onClear: () => void }) {
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [ecode, setEcode] = useState('rejected');
  const decide = useApiMutation('inbox.decideMany', { invalidates: ['inbox.list', 'inbox.approvals'], onSuccess: onClear });
  const result = decide.data;
  const refused = result?.results.filter((r) => r.outcome === 'refused') ?? [];
  return (
    <div className={styles.bulk} role="group" aria-label="Decide the selected tasks">
      {tasks.length > 0 ? (
        <div className={styles.bulkButtons}>
          <span>{tasks.length === 1 ? '1 task selected' : `${tasks.length} tasks selected`}</span>
          <Button size="sm" variant="primary" busy={decide.isPending && !rejecting} disabled={decide.isPending} onClick={() => decide.mutate({ tasks, action: 'complete' })}>
            Approve all
          </Button>
          {rejecting ? (
            <>
              <label htmlFor={`${id}-ecode`}>Error code</label>
              <input id={`${id}-ecode`} className={styles.bulkInput} value={ecode} onChange={(e) => setEcode(e.target.value)} />
              <Button size="sm" variant="danger" busy={decide.isPending} disabled={ecode.trim() === ''} onClick={() => decide.mutate({ tasks, action: 'error', options: { ecode: ecode.trim() } })}>
                Reject all
              </Button>
            </>
          ) : (
            <Button size="sm" variant="danger" disabled={decide.isPending} onClick={() => setRejecting(true)}>
              Reject all…
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear
          </Button>
        </div>
      ) : null}
      {result ? (
        <div role="status" data-testid="bulk-result">
          <p>
            {result.done} decided{result.refused > 0 ? `, ${result.refused} not:` : '.'}
          </p>
          {refused.length > 0 ? (
            <ul className={styles.bulkRefused}>
              {refused.slice(0, SHOWN).map((r) => (
                <li key={`${r.pid}/${r.tid}`}>
                  {r.pid}: {r.message} <code>{r.code}</code>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {decide.error ? <ErrorNote error={decide.error} title="The tasks were not decided" /> : null}
    </div>
  );
}
