/**
 * Setting process variables: a JSON object typed in a text area, checked before it is sent.
 * State: closed → open (editing; a parse problem shows under the field) → saving → saved (closes)
 * or failed (the server's error shown, the text kept).
 */
'use client';
import { useId, useState, type FormEvent } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './run.module.css';

/** The text as a plain JSON object, or the reason it is not one. */
export function parseVars(text: string): { vars: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `Not valid JSON: ${(err as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: 'Write an object of variables, e.g. {"amount": 200}' };
  if (Object.keys(value).length === 0) return { problem: 'Add at least one variable' };
  return { vars: value as Record<string, unknown> };
}

export function SetVarsForm({ pid }: { pid: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const save = useApiMutation('processes.setVars', { invalidates: ['tasks.get'], onSuccess: () => setOpen(false) });
  if (!open) {
    return (
      <Button icon="plug" onClick={() => setOpen(true)}>
        Set variables
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseVars(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    save.mutate({ pid, vars: parsed.vars });
  };
  return (
    <form className={styles.varsForm} onSubmit={submit} aria-label="Set process variables">
      <label htmlFor={id}>Variables (a JSON object)</label>
      <textarea
        id={id}
        rows={4}
        value={text}
        placeholder='{"amount": 200}'
        onChange={(e) => setText(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        spellCheck={false}
      />
      {problem ? (
        <p id={`${id}-problem`} className={styles.fieldError}>
          {problem}
        </p>
      ) : null}
      {save.error ? <ErrorNote error={save.error} title="The variables were not set" /> : null}
      <div className={styles.row2}>
        <Button type="submit" variant="primary" busy={save.isPending}>
          Set
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
