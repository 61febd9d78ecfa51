/**
 * Who works on an inbox task, beside its form: "Held by carol since 10:42" (or "no one holds it"),
 * and what the signed-in user may do about it — claim a free task they may answer, release or
 * delegate one they hold (to a named operator), or, as an admin, take it or free it. A delegate's
 * proposal (a `delegation: confirm` act) is shown to the delegator, and the task's last escalation
 * (vocab/escalations.ts) to everyone. Every change is a mutation of
 * `inbox.*` (server/api/claims.ts); the form is read again after it (and live, when another
 * user's change arrives). State: the delegate input and the last refusal (of the mutation).
 */
'use client';
import { useId, useState } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './task-form.module.css';
import { ago } from './waited.ts';
import { escalationText, lastEscalation } from '../../vocab/escalations.ts';

type Found = Extract<ApiOutput<'inbox.form'>, { found: true }>;

interface ClaimBarProps {
  form: Found;
  me: string;
  now: number;
  /** Admins may take or free any task. */
  admin: boolean;
  /** The user may answer the task were it free (the act names them, or no one). */
  candidate: boolean;
}

const INVALIDATES = ['inbox.form', 'inbox.list'] as const;

export function ClaimBar({ form, me, now, admin, candidate }: ClaimBarProps) {
  const id = useId();
  const [to, setTo] = useState('');
  const target = { pid: form.pid, tid: form.tid };
  const claim = useApiMutation('inbox.claim', { invalidates: [...INVALIDATES] });
  const release = useApiMutation('inbox.release', { invalidates: [...INVALIDATES] });
  const delegate = useApiMutation('inbox.delegate', { invalidates: [...INVALIDATES], onSuccess: () => setTo('') });
  const reassign = useApiMutation('inbox.reassign', { invalidates: [...INVALIDATES] });
  const error = claim.error ?? release.error ?? delegate.error ?? reassign.error;
  const busy = claim.isPending || release.isPending || delegate.isPending || reassign.isPending;
  if (!form.open || !form.hold) return null;
  const { holder, held_since: since, delegator, proposal } = form.hold;
  const mine = holder === me;
  const escalation = lastEscalation(form.params);

  return (
    <div className={styles.claim} role="group" aria-label="Who works on it" data-holder={holder ?? ''}>
      <p className={styles.meta} data-testid="task-holder">
        {holder === null ? 'No one holds this task.' : mine ? 'You hold this task' : `Held by ${holder}`}
        {holder !== null && since !== null ? ` since ${ago(since, now)}` : ''}
        {mine && delegator ? ` (delegated by ${delegator}${form.delegation === 'confirm' ? ', who confirms your answer' : ''})` : ''}
        {!mine && holder !== null && delegator ? ` (delegated by ${delegator})` : ''}
        {holder === null ? '' : '.'}
      </p>
      {escalation ? (
        <p className={styles.meta} data-testid="task-escalation" title={new Date(escalation.at).toLocaleString()}>
          {escalationText(escalation)} ({ago(escalation.at, now)}).
        </p>
      ) : null}
      {proposal && mine ? (
        <p className={styles.meta} data-testid="task-proposal">
          Proposed by {String(proposal.proposed_by ?? 'the delegate')}: {JSON.stringify(Object.fromEntries(Object.entries(proposal).filter(([k]) => k !== 'proposed_by')))}
        </p>
      ) : null}
      <div className={styles.claimButtons}>
        {holder === null && (candidate || admin) ? (
          <Button size="sm" variant="primary" busy={claim.isPending} disabled={busy} onClick={() => claim.mutate(target)}>
            Claim
          </Button>
        ) : null}
        {mine ? (
          <>
            <Button size="sm" busy={release.isPending} disabled={busy} onClick={() => release.mutate(target)}>
              {delegator ? `Give back to ${delegator}` : 'Release'}
            </Button>
            <label htmlFor={`${id}-to`} className={styles.hint}>
              Delegate to
            </label>
            <input id={`${id}-to`} className={styles.claimInput} value={to} placeholder="user name" onChange={(e) => setTo(e.target.value)} />
            <Button size="sm" busy={delegate.isPending} disabled={busy || to.trim() === ''} onClick={() => delegate.mutate({ ...target, to: to.trim() })}>
              Delegate
            </Button>
          </>
        ) : null}
        {admin && !mine ? (
          <Button size="sm" variant="ghost" busy={reassign.isPending} disabled={busy} onClick={() => reassign.mutate({ ...target, to: me })}>
            Take it
          </Button>
        ) : null}
        {admin && holder !== null ? (
          <Button size="sm" variant="ghost" busy={reassign.isPending} disabled={busy} onClick={() => reassign.mutate({ ...target, to: null })}>
            Free it
          </Button>
        ) : null}
      </div>
      {error ? <ErrorNote error={error} title="The task did not change hands" /> : null}
    </div>
  );
}
