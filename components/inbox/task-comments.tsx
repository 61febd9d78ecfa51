/**
 * The comments on a run's tasks, beside an open inbox task (`inbox.comments`, oldest first): what
 * was said on this task and on the run's earlier ones, and a box to add one (`inbox.comment`) for
 * whoever may answer the task. Read again after adding one, and live when another user comments
 * (the inbox list's live events). State: the text being written and the mutation's status.
 */
'use client';
import { useId, useState, type FormEvent } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { COMMENT_MAX_CHARS } from '../../vocab/comments.ts';
import styles from './task-form.module.css';
import { ago } from './waited.ts';

interface TaskCommentsProps {
  pid: string;
  tid: string;
  now: number;
  /** The user may comment (holds the task, or could answer it). */
  mayComment: boolean;
}

export function TaskComments({ pid, tid, now, mayComment }: TaskCommentsProps) {
  const id = useId();
  const [text, setText] = useState('');
  const comments = useApiQuery('inbox.comments', { pid });
  const add = useApiMutation('inbox.comment', { invalidates: ['inbox.comments'], onSuccess: () => setText('') });
  const rows = comments.data?.rows ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() !== '') add.mutate({ pid, tid, text });
  };
  return (
    <section className={styles.comments} aria-label="Comments">
      {rows.length > 0 ? (
        <ol className={styles.commentList} aria-label="Comments on this run">
          {rows.map((c) => (
            <li key={c.id} data-tid={c.tid}>
              <span className={styles.meta}>
                {c.author}, {ago(c.time, now)}
                {c.tid === tid ? '' : ' (on an earlier task)'}:
              </span>{' '}
              {c.text}
            </li>
          ))}
        </ol>
      ) : null}
      {mayComment ? (
        <form className={styles.commentForm} onSubmit={submit} aria-label="Add a comment">
          <label htmlFor={`${id}-comment`} className={styles.hint}>
            Comment for the next people who see this run
          </label>
          <textarea id={`${id}-comment`} className={styles.input} rows={2} maxLength={COMMENT_MAX_CHARS} value={text} onChange={(e) => setText(e.target.value)} />
          <Button type="submit" size="sm" busy={add.isPending} disabled={text.trim() === ''}>
            Add comment
          </Button>
          {add.error ? <ErrorNote error={add.error} title="The comment was not added" /> : null}
        </form>
      ) : null}
    </section>
  );
}
