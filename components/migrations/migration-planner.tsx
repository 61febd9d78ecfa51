/**
 * One migration from version `from` to `to` of a model: the proposed mapping (`migrations.plan`)
 * edited in the mapping table, checked against the processes it would move (`migrations.check`),
 * then started (`migrations.start`) and followed (the bulk job's progress and per-run results).
 *
 * State: loading the plan → mapping (choices edited; any change drops the last check) → checked
 * (counts and blocked processes shown; "Migrate N processes" offered when some are ready) →
 * starting → migrating (the bulk job: the mapping is read-only) → done (the running counts are
 * read again). A refused check or start stays shown with its code.
 */
'use client';
import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiKey } from '../data/query-keys.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { BulkProgress } from '../runs/bulk-progress.tsx';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { BULK_ACTIONS } from '../../vocab/bulk-actions.ts';
import { blockedByNode, CheckResult } from './check-result.tsx';
import { planFields, type Choice, type Choices } from './mapping.ts';
import { MappingTable } from './mapping-table.tsx';
import styles from './migrations.module.css';
import { processes } from './words.ts';

export function MigrationPlanner({ mid, from, to, onClose }: { mid: string; from: number; to: number; onClose: () => void }) {
  const plan = useApiQuery('migrations.plan', { mid, from, to }, { staleTime: 0, gcTime: 0 });
  const [choices, setChoices] = useState<Choices>({});
  const [job, setJob] = useState<string | null>(null);
  const check = useApiMutation('migrations.check');
  const start = useApiMutation('migrations.start', { onSuccess: (started) => setJob(started.job) });
  const queryClient = useQueryClient();
  const onEnded = useCallback(() => {
    for (const path of ['migrations.running', 'processes.list', 'models.list'] as const) void queryClient.invalidateQueries({ queryKey: apiKey(path) });
  }, [queryClient]);
  const fields = useMemo(() => planFields(plan.data?.nodes ?? [], choices), [plan.data, choices]);
  const blockedAt = useMemo(() => blockedByNode(check.data), [check.data]);

  if (plan.error) return <ErrorNote error={plan.error} title="The mapping could not be read" onRetry={() => plan.refetch()} />;
  if (!plan.data) return <Spinner label="Loading both versions' nodes" />;
  const choose = (nid: string, choice: Choice) => {
    setChoices((prev) => ({ ...prev, [nid]: choice }));
    check.reset();
    start.reset();
  };
  const request = { mid, from, to, ...fields };
  const ready = check.data?.ready ?? 0;
  return (
    <div className={styles.planner} data-from={from} data-to={to}>
      <p>
        {processes(plan.data.running)} run version {from}. Map each of its nodes to a node of version {to}; a node with the same id maps to it unless you pick another.
      </p>
      <fieldset className={styles.plain} disabled={job !== null}>
        <MappingTable nodes={plan.data.nodes} targets={plan.data.targets} choices={choices} blockedAt={blockedAt} onChoose={choose} />
      </fieldset>
      {check.data ? <CheckResult check={check.data} /> : null}
      {check.error ? <ErrorNote error={check.error} title="The plan was not checked" /> : null}
      {start.error ? <ErrorNote error={start.error} title="The migration was not started" /> : null}
      {job ? (
        <BulkProgress job={job} action="migrate" onEnded={onEnded} onClose={onClose} />
      ) : (
        <div className={styles.actions}>
          {check.data && ready > 0 ? <p className={styles.muted}>{BULK_ACTIONS.migrate.warning}</p> : null}
          <Button busy={check.isPending} onClick={() => check.mutate(request)}>
            Check
          </Button>
          {check.data && ready > 0 ? (
            <Button variant="primary" busy={start.isPending} onClick={() => start.mutate({ ...request, pids: check.data!.readyPids })}>
              Migrate {processes(ready)}
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}
