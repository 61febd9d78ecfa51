/**
 * Aborting a run, with a confirmation in place (no modal): idle → confirming ("Abort this run?")
 * → aborting (busy) → done or failed (the error stays shown until the next try).
 */
'use client';
import { useState } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import styles from './run.module.css';

export function AbortButton({ pid }: { pid: string }) {
  const [confirming, setConfirming] = useState(false);
  const abort = useApiMutation('processes.abort', { invalidates: ['processes.list'], onSuccess: () => setConfirming(false) });
  if (!confirming) {
    return (
      <Button variant="danger" icon="stop" onClick={() => setConfirming(true)}>
        Abort run
      </Button>
    );
  }
  return (
    <div className={styles.confirm} role="group" aria-label="Confirm abort">
      <span>Abort this run? Open tasks stop and it cannot be resumed.</span>
      <Button variant="danger" busy={abort.isPending} onClick={() => abort.mutate({ pid })}>
        Yes, abort
      </Button>
      <Button variant="ghost" onClick={() => setConfirming(false)} disabled={abort.isPending}>
        Keep running
      </Button>
      {abort.error ? <ErrorNote error={abort.error} title="The run was not aborted" /> : null}
    </div>
  );
}
