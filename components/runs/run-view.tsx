/**
 * The run page: header with actions, the live graph, the selected task's details and variables,
 * the errors, the deliveries, and the timeline. Data and live events live in a RunStore
 * (use-run.ts); this component owns only the selection.
 *
 * State: `selectedTid` — a task picked on the graph (its node's latest task), the timeline or the
 * error list; the graph highlights that task's node.
 */
'use client';
import { useParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { useMe } from '../data/auth.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { AbortButton } from './abort-button.tsx';
import { ControlPanel, PauseButton } from './run-control.tsx';
import { DeliveriesPanel } from './deliveries-panel.tsx';
import { RunErrors } from './run-errors.tsx';
import { RunGraph } from './run-graph.tsx';
import { RunHeader } from './run-header.tsx';
import { RunTimeline } from './run-timeline.tsx';
import { SetVarsForm } from './set-vars-form.tsx';
import { TaskDetails } from './task-details.tsx';
import styles from './run.module.css';
import { useRun, useRunSlice } from './use-run.ts';
import { isTerminalName } from '../../vocab/states.ts';

export function RunView() {
  const { pid } = useParams<{ pid: string }>();
  const { store, read, liveError } = useRun(pid);
  const me = useMe();
  const [selectedTid, setSelectedTid] = useState<string | null>(null);
  const selectedNid = useRunSlice(store, (s) => (selectedTid ? s.task(selectedTid)?.nid : undefined));
  const selectedNode = useRunSlice(store, (s) => (selectedNid ? (s.nodeOf(selectedNid) ?? null) : null));
  const state = useRunSlice(store, (s) => s.process?.state);
  const onSelectNode = useCallback((nodeId: string | null) => setSelectedTid(nodeId ? (store.taskOfNode(nodeId)?.tid ?? null) : null), [store]);

  if (read.error) return <ErrorNote error={read.error} title="The run could not be read" onRetry={() => void read.refetch()} />;
  if (!read.data) return <Spinner label="Loading the run" />;
  const canOperate = me.can('operate');
  const actions =
    canOperate && state && !isTerminalName(state) ? (
      <>
        <PauseButton pid={pid} store={store} />
        <SetVarsForm pid={pid} />
        <AbortButton pid={pid} />
      </>
    ) : null;
  return (
    <div className={styles.run}>
      <RunHeader store={store} actions={actions} />
      {liveError ? <ErrorNote error={liveError} title="Live updates stopped for this run" onRetry={() => void read.refetch()} /> : null}
      <RunGraph pid={pid} store={store} selected={selectedNode} onSelect={onSelectNode} />
      <aside className={styles.side} aria-label="Task details">
        <ControlPanel pid={pid} store={store} canOperate={canOperate} canDebug={me.can('debug')} />
        <RunErrors store={store} onSelect={setSelectedTid} />
        <TaskDetails pid={pid} store={store} tid={selectedTid} />
        <DeliveriesPanel pid={pid} cursor={read.data.cursor} canOperate={canOperate} />
      </aside>
      <RunTimeline store={store} selectedTid={selectedTid} onSelect={setSelectedTid} />
    </div>
  );
}
