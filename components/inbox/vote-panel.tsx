/**
 * The votes on an inbox task decided by several people (M-of-N, four-eyes: vocab/quorum.ts), in
 * place of the claim bar and the single answer: where they stand ("1 of 2 approved"), who voted
 * how and why, and — for one who may vote and has not — a comment and Approve / Reject
 * (`inbox.vote`). Other voters' votes arrive live (the inbox room's `voted` events re-read the
 * form). A vote that decides the task ends it here like any answer (`onDone`).
 * State: the comment written; the vote being sent and its refusal (the mutation).
 */
'use client';
import { useId, useState } from 'react';
import type { ApiOutput } from '../data/api-types.ts';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { progressText, type VoteDecision } from '../../vocab/quorum.ts';
import styles from './task-form.module.css';
import type { TaskAction } from './use-task-action.ts';

type Found = Extract<ApiOutput<'inbox.form'>, { found: true }>;

interface VotePanelProps {
  form: Found & { votes: NonNullable<Found['votes']> };
  me: string;
  /** The caller's vote decided the task (approved: complete, rejected: error). */
  onDone: (action: TaskAction) => void;
}

export function VotePanel({ form, me, onDone }: VotePanelProps) {
  const id = useId();
  const [comment, setComment] = useState('');
  const { votes } = form;
  const vote = useApiMutation('inbox.vote', {
    invalidates: ['inbox.form', 'inbox.list'],
    onSuccess: (r) => {
      setComment('');
      if (r.need !== null && r.approvals >= r.need) onDone('complete');
      else if (r.rejections >= votes.rejectAfter) onDone('error');
    },
  });
  const mine = votes.votes.find((v) => v.user === me);
  const canVote = form.open && form.mayVote && !mine;
  const send = (decision: VoteDecision) => vote.mutate({ pid: form.pid, tid: form.tid, decision, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  const excluded = form.votes.quorum.excludeRequester ? ' · the requester may not vote' : '';

  return (
    <div className={styles.claim} role="group" aria-label="Votes" data-testid="task-votes">
      <p className={styles.meta}>
        <strong data-testid="vote-progress">{progressText(votes)}</strong>
        {votes.rejectAfter > 1 ? ` · ${votes.rejectAfter} rejections reject it` : ' · one rejection rejects it'}
        {excluded}
      </p>
      {votes.votes.length > 0 ? (
        <ul className={styles.hint} aria-label="Votes cast">
          {votes.votes.map((v) => (
            <li key={v.user} data-testid="vote">
              {v.user === me ? 'You' : v.user} {v.decision === 'approve' ? 'approved' : 'rejected'}
              {v.comment ? `: “${v.comment}”` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {mine ? <p className={styles.meta}>You {mine.decision === 'approve' ? 'approved' : 'rejected'} this task; each person votes once.</p> : null}
      {form.requester ? <p className={styles.meta}>You asked for this approval, so the others decide (four eyes).</p> : null}
      {canVote ? (
        <>
          <label htmlFor={`${id}-comment`} className={styles.hint}>
            Comment (optional)
          </label>
          <textarea id={`${id}-comment`} className={styles.input} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
          <div className={styles.claimButtons}>
            <Button variant="primary" icon="check" busy={vote.isPending && vote.variables?.decision === 'approve'} disabled={vote.isPending} onClick={() => send('approve')}>
              Approve
            </Button>
            <Button variant="danger" icon="x" busy={vote.isPending && vote.variables?.decision === 'reject'} disabled={vote.isPending} onClick={() => send('reject')}>
              Reject
            </Button>
          </div>
        </>
      ) : null}
      {vote.error ? <ErrorNote error={vote.error} title="Your vote was not counted" /> : null}
    </div>
  );
}
