/**
 * The selected task: what it is, its state, times and error, and its variables (`data`, `inputs`,
 * `outputs`, evaluated `params`) read with `tasks.get` — read again whenever the live store sees
 * the task change —, and for acts what people did to it (task-history.tsx). An external package's
 * waiting act says it waits for a worker.
 */
'use client';
import { ErrorReason } from './error-reason.tsx';
import { useApiQuery } from '../data/use-api.ts';
import { EmptyState } from '../ui/empty-state.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { isTerminalName } from '../../vocab/states.ts';
import { Duration } from './duration.tsx';
import { useExternalPackages, workerAware } from './external-acts.ts';
import { formatTime } from './format.ts';
import { JsonBlock } from './json-block.tsx';
import { TaskHistory } from './task-history.tsx';
import { useRefetchOnChange } from './use-refetch-on-change.ts';
import { shownState, type RunStore } from './run-store.ts';
import styles from './run.module.css';
import { useRunSlice } from './use-run.ts';

function TaskVariables({ pid, tid, version }: { pid: string; tid: string; version: unknown }) {
  const read = useApiQuery('tasks.get', { pid, tid }, { refetchOnWindowFocus: false });
  useRefetchOnChange(read.refetch, version);
  if (read.error) return <ErrorNote error={read.error} title="The task's variables could not be read" onRetry={() => void read.refetch()} />;
  if (!read.data) return <Spinner label="Loading the variables" />;
  const { task } = read.data;
  return (
    <>
      <JsonBlock title="Data (variables)" value={task.data} />
      <JsonBlock title="Inputs" value={task.inputs} />
      <JsonBlock title="Outputs" value={task.outputs} />
      {task.params !== null ? <JsonBlock title="Params" value={task.params} /> : null}
    </>
  );
}

export function TaskDetails({ pid, store, tid }: { pid: string; store: RunStore; tid: string | null }) {
  const task = useRunSlice(store, (s) => (tid ? s.task(tid) : undefined));
  const external = useExternalPackages();
  if (!tid || !task) {
    return (
      <EmptyState icon="info" title="Select a task">
        Click a node of the graph or a line of the timeline to see its state, error and variables.
      </EmptyState>
    );
  }
  return (
    <section className={styles.details} aria-label={`Task ${task.name || task.key}`} data-testid="task-details">
      <header className={styles.detailsHead}>
        <h3>{task.name || task.key}</h3>
        <StateBadge state={workerAware(shownState(task), task.uses, external)} />
      </header>
      <dl className={styles.facts}>
        <dt>Kind</dt>
        <dd>
          {task.kind}
          {task.uses ? ` · ${task.uses}` : ''}
        </dd>
        <dt>Key</dt>
        <dd className={styles.mono}>{task.key}</dd>
        <dt>Task id</dt>
        <dd className={styles.mono}>{task.tid}</dd>
        <dt>Started</dt>
        <dd>{formatTime(task.start_time)}</dd>
        <dt>Took</dt>
        <dd>
          <Duration start={task.start_time} end={task.end_time} running={!isTerminalName(task.state)} />
        </dd>
      </dl>
      {task.err ? (
        <p className={styles.taskError} role="alert">
          <ErrorReason err={task.err} />
        </p>
      ) : null}
      {task.kind === 'act' ? <TaskHistory key={`history-${tid}`} pid={pid} tid={tid} version={task} /> : null}
      <TaskVariables key={tid} pid={pid} tid={tid} version={task} />
    </section>
  );
}
