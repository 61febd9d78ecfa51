/**
 * The comment an outcome takes (vocab/outcomes.ts `comment`), asked for before its choice is sent:
 * a required one may not be blank — said in the engine's own sentence (`commentRequiredSentence`),
 * and nothing is sent. State: the comment written and the problem said, until the panel closes.
 */
'use client';
import { useId, useState } from 'react';
import { commentRequiredSentence, type DeclaredOutcome } from '../../vocab/outcomes.ts';
import { escapeTo, PanelButtons, usePanelFocus } from './panel-parts.tsx';
import { RequiredMark } from './required-mark.tsx';
import styles from './task-form.module.css';

interface CommentPanelProps {
  outcome: DeclaredOutcome;
  disabled: boolean;
  onCancel: () => void;
  onSend: (comment: string) => void;
}

export function CommentPanel({ outcome, disabled, onCancel, onSend }: CommentPanelProps) {
  const id = useId();
  const first = usePanelFocus<HTMLTextAreaElement>();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const required = outcome.comment === 'required';
  const confirm = () => {
    if (required && comment.trim() === '') return setProblem(commentRequiredSentence(outcome));
    onSend(comment);
  };
  return (
    <div className={styles.panel} role="group" aria-label={`${outcome.label}: comment`} onKeyDown={(e) => escapeTo(e, onCancel)}>
      <div className={styles.field}>
        <label htmlFor={`${id}-comment`} className={styles.label}>
          Comment
          <RequiredMark required={required} />
        </label>
        <textarea
          ref={first}
          id={`${id}-comment`}
          className={styles.input}
          rows={3}
          value={comment}
          aria-required={required || undefined}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setComment(e.target.value)}
        />
        {problem ? (
          <p role="alert" className={styles.invalid}>
            {problem}
          </p>
        ) : (
          <p className={styles.hint}>Recorded with the answer{outcome.ecode ? ' and given as the reason' : ''}.</p>
        )}
      </div>
      <PanelButtons label={outcome.label} variant={outcome.ecode === undefined ? 'primary' : 'danger'} disabled={disabled} onConfirm={confirm} onCancel={onCancel} />
    </div>
  );
}
