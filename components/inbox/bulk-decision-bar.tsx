/**
 * One decision for the ticked inbox tasks (`inbox.decideMany`): approve them all — with one
 * answer, in the typed fields of their act when they are all of one act (use-bulk-answer.ts) — or
 * reject them all with one error code; then how many went through and, for each that did not
 * (answered elsewhere meanwhile, held by another …), why, with its code. State: the reject
 * panel's ecode, the answer form's inputs and the mutation's result.
 */
'use client';
import { useId, useState } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './inbox-view.module.css';
import formStyles from './task-form.module.css';
import { OutputField } from './output-field.tsx';
import { useBulkAnswer, type BulkTask } from './use-bulk-answer.ts';

const SHOWN = 20;

export function BulkDecisionBar({ tasks: ticked, onClear }: { tasks: BulkTask[]; onClear: () => void }) {
  const id = useId();
  const [rejecting, setRejecting] = useState(false);
  const [ecode, setEcode] = useState('rejected');
  const decide = useApiMutation('inbox.decideMany', { invalidates: ['inbox.list', 'inbox.approvals'], onSuccess: onClear });
  const { oneAct, fields, filesLeft, answer } = useBulkAnswer(ticked);
  const tasks = ticked.map(({ pid, tid }) => ({ pid, tid }));
  const approve = () => {
    const checked = answer.check();
    if (checked.ok) decide.mutate({ tasks, action: 'complete', options: checked.options });
  };
  const result = decide.data;
  const refused = result?.results.filter((r) => r.outcome === 'refused') ?? [];
  return (
    <div className={styles.bulk} role="group" aria-label="Decide the selected tasks">
      {tasks.length > 0 ? (
        <div className={styles.bulkButtons}>
          <span>{tasks.length === 1 ? '1 task selected' : `${tasks.length} tasks selected`}</span>
          <Button size="sm" variant="primary" busy={decide.isPending && !rejecting} disabled={decide.isPending} onClick={approve}>
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
      {tasks.length > 1 && !oneAct ? <p className={formStyles.hint}>The selected tasks are of different steps: they are approved without answers. Select tasks of one step to answer them together.</p> : null}
      {oneAct && fields.length > 0 ? (
        <fieldset className={formStyles.fields} disabled={decide.isPending} aria-label="One answer for the selected tasks">
          <legend className={formStyles.legend}>One answer for all</legend>
          {fields.map((f) => (
            <OutputField key={f.key} field={f} value={answer.valueOf(f)} disabled={decide.isPending} invalid={answer.blank.has(f.key)} problems={answer.problems.get(f.key)} onChange={(v) => answer.set(f.key, v)} />
          ))}
          {filesLeft > 0 ? <p className={formStyles.hint}>Files are answered one task at a time.</p> : null}
        </fieldset>
      ) : null}
      {answer.invalid ? (
        <p role="alert" className={formStyles.invalid}>
          {answer.invalid}
        </p>
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
