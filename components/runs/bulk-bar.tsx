/**
 * The runs list's bulk actions (vocab/bulk-actions.ts): how many runs are selected, "select all N
 * matching" the filter, one button per action the caller's roles allow (vocab/roles.ts, as the
 * server checks), a confirmation dialog, then the action's progress and results (bulk-progress.tsx).
 *
 * State: idle → confirming (an action picked, the dialog open) → starting (`bulk.<action>` sent)
 * → following (a job id: the progress panel; the selection is cleared once it ended) → idle
 * (closed). A refused start stays shown in the dialog.
 */
'use client';
import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callMutation } from '../data/api-client.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import type { ApiInput, ApiOutput } from '../data/api-types.ts';
import { useMe } from '../data/auth.ts';
import { apiKey } from '../data/query-keys.ts';
import { Modal } from '../designer/modal.tsx';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { BULK_ACTION_NAMES, BULK_ACTIONS, MAX_BULK_RUNS, type BulkActionName, type RunsListActionName } from '../../vocab/bulk-actions.ts';
import styles from './bulk.module.css';
import { BulkProgress } from './bulk-progress.tsx';
import type { RunSelection } from './use-run-selection.ts';
import type { runsFilterInput } from './runs-view.ts';

const runs = (n: number) => (n === 1 ? '1 run' : `${n} runs`);

/** The procedure of each bulk action (routers/bulk.ts has one per entry of vocab/bulk-actions.ts). */
type BulkPath = `bulk.${RunsListActionName}`;

/** The bulk actions the caller may start (the studio shows a button exactly when the server would allow it). */
export function useBulkActions(): RunsListActionName[] {
  const me = useMe();
  return BULK_ACTION_NAMES.filter((name) => me.can(BULK_ACTIONS[name].permission));
}

export function BulkBar({ actions, selection, count, filter }: { actions: readonly RunsListActionName[]; selection: RunSelection; count: number; filter: ReturnType<typeof runsFilterInput> }) {
  const [confirming, setConfirming] = useState<RunsListActionName | null>(null);
  const [job, setJob] = useState<{ id: string; action: BulkActionName } | null>(null);
  const queryClient = useQueryClient();
  const start = useMutation<ApiOutput<BulkPath>, ApiError, { action: RunsListActionName; selection: ApiInput<BulkPath> }>({
    mutationFn: ({ action, selection }) => callMutation(`bulk.${action}`, selection).catch((err: unknown) => Promise.reject(toApiError(err))),
    onSuccess: (started) => {
      setJob({ id: started.job, action: started.action });
      setConfirming(null);
    },
  });
  const { clear } = selection;
  const onEnded = useCallback(() => {
    clear();
    void queryClient.invalidateQueries({ queryKey: apiKey('processes.list') });
  }, [clear, queryClient]);

  const size = selection.size;
  const tooMany = size > MAX_BULK_RUNS;
  const send = (action: RunsListActionName) => start.mutate({ action, selection: selection.all ? { filter } : { pids: [...selection.pids] } });
  return (
    <>
      <div className={styles.bar} role="toolbar" aria-label="Bulk actions" data-selected={size}>
        <span className={styles.selected}>{selection.all ? `All ${runs(size)} matching the filter selected` : size === 0 ? 'No run selected' : `${runs(size)} selected`}</span>
        {!selection.all && count > 0 ? (
          <Button size="sm" variant="ghost" onClick={selection.selectAll}>
            Select all {count} matching
          </Button>
        ) : null}
        {size > 0 ? (
          <Button size="sm" variant="ghost" onClick={selection.clear}>
            Clear selection
          </Button>
        ) : null}
        {actions.map((action) => (
          <Button key={action} size="sm" variant="danger" disabled={size === 0 || tooMany || job !== null} onClick={() => setConfirming(action)} title={tooMany ? `at most ${MAX_BULK_RUNS} runs at once: narrow the filter` : undefined}>
            {BULK_ACTIONS[action].label} {size > 0 ? runs(size) : 'runs'}…
          </Button>
        ))}
      </div>
      <Modal open={confirming !== null} title={confirming ? `${BULK_ACTIONS[confirming].label} ${runs(size)}?` : ''} onClose={() => setConfirming(null)}>
        {confirming ? (
          <div className={styles.confirm}>
            <p>
              {selection.all ? `Every run matching the filter (${runs(size)} now)` : `The ${runs(size)} you selected`} will be {BULK_ACTIONS[confirming].done}. {BULK_ACTIONS[confirming].warning} Runs that
              already ended are left as they are.
            </p>
            {start.error ? <ErrorNote error={start.error} title="The bulk action was not started" /> : null}
            <div className={styles.confirmButtons}>
              <Button variant="danger" busy={start.isPending} onClick={() => send(confirming)}>
                Yes, {BULK_ACTIONS[confirming].label.toLowerCase()} {runs(size)}
              </Button>
              <Button variant="ghost" onClick={() => setConfirming(null)} disabled={start.isPending}>
                Cancel
              </Button>
            </div>
          </div>
        ) : null}
      </Modal>
      {job ? <BulkProgress job={job.id} action={job.action} onEnded={onEnded} onClose={() => setJob(null)} /> : null}
    </>
  );
}
