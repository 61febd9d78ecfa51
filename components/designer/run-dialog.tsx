/**
 * Starting the deployed model with a form generated from the workflow's `inputs` (each default as
 * the field's starting value; a value is read as YAML, so `120` is a number and `[a, b]` a list).
 * State: editing → starting (busy) → started (a link to the run) | failed (the error).
 */
'use client';
import Link from 'next/link';
import { useState } from 'react';
import YAML from 'yaml';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './designer.module.css';
import { Modal } from './modal.tsx';

const shown = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : YAML.stringify(value, { flow: true }).trim());

function readValue(text: string): unknown {
  try {
    return text.trim() === '' ? null : YAML.parse(text);
  } catch {
    return text;
  }
}

export function RunDialog({ modelId, inputs, open, onClose }: { modelId: string; inputs: Record<string, unknown>; open: boolean; onClose: () => void }) {
  const start = useApiMutation('processes.start', { invalidates: ['processes.list'] });
  const [pid, setPid] = useState<string | null>(null);
  const close = () => {
    setPid(null);
    start.reset();
    onClose();
  };
  return (
    <Modal open={open} title={`Run ${modelId}`} onClose={close}>
      {pid ? (
        <div className={styles.dialogBody}>
          <p role="status">
            Started run <code>{pid}</code>. <Link href={`/runs/${encodeURIComponent(pid)}`}>Open the run</Link>
          </p>
        </div>
      ) : (
        <form
          className={styles.dialogBody}
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            const values = Object.fromEntries(Object.keys(inputs).map((key) => [key, readValue(String(form.get(key) ?? ''))]));
            start.mutate({ mid: modelId, inputs: values }, { onSuccess: (started) => setPid(started.pid) });
          }}
        >
          {Object.keys(inputs).length === 0 ? <p className={styles.muted}>This workflow declares no inputs.</p> : null}
          {Object.entries(inputs).map(([key, value]) => (
            <div key={key} className={styles.field}>
              <label htmlFor={`run-input-${key}`}>{key}</label>
              <input id={`run-input-${key}`} name={key} defaultValue={shown(value)} className={styles.code} />
            </div>
          ))}
          <p className={styles.hint}>Runs the latest deployed version. Values are read as YAML (numbers, lists, text).</p>
          {start.error ? <ErrorNote error={start.error} title="The run did not start" /> : null}
          <div className={styles.dialogActions}>
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" icon="play" busy={start.isPending}>
              Start run
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
