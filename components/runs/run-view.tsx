/**
 * The run page: header with actions, the live graph, the selected task's details and variables,
 * the errors, the deliveries, and the timeline. Data and live events live in a RunStore
 * (use-run.ts); this component owns only the selection.
 *
 * State: `selectedTid` — a task picked on the graph (its node's latest task), the timeline or the
 * error list; the graph highlights that task's node. Replay (`?at=`, replay-moment.ts): the graph,
 * the errors and the timeline draw the run as it was at the moment (use-replay.ts), and the side
 * panel shows the events around it and the variables then.
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
import { MomentDetails } from './moment-details.tsx';
import { ReplayBar } from './replay-bar.tsx';
import { ReplayEvents } from './replay-events.tsx';
import { useReplayMoment } from './replay-moment.ts';
import replayStyles from './replay.module.css';
import { useReplay } from './use-replay.ts';
import { isTerminalName } from '../../vocab/states.ts';

export function RunView() {
  const { pid } = useParams<{ pid: string }>();
  const { store, read, liveError } = useRun(pid);
  const me = useMe();
  const [selectedTid, setSelectedTid] = useState<string | null>(null);
  const moment = useReplayMoment();
  const replay = useReplay(pid, store, moment);
  const shown = replay.shown;
  const selectedNid = useRunSlice(store, (s) => (selectedTid ? s.task(selectedTid)?.nid : undefined));
  const selectedNode = useRunSlice(store, (s) => (selectedNid ? (s.nodeOf(selectedNid) ?? null) : null));
  const state = useRunSlice(store, (s) => s.process?.state);
  const onSelectNode = useCallback((nodeId: string | null) => setSelectedTid(nodeId ? (shown.taskOfNode(nodeId)?.tid ?? null) : null), [shown]);

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
    <div className={`${styles.run} ${replayStyles.withReplay}`}>
      <RunHeader store={store} actions={actions} />
      {liveError ? <ErrorNote error={liveError} title="Live updates stopped for this run" onRetry={() => void read.refetch()} /> : null}
      <ReplayBar moment={moment} span={replay.span} events={replay.events} running={replay.running} />
      <RunGraph pid={pid} store={shown} selected={selectedNode} onSelect={onSelectNode} />
      <aside className={styles.side} aria-label="Task details">
        <ControlPanel pid={pid} store={store} canOperate={canOperate} canDebug={me.can('debug')} onSelect={setSelectedTid} />
        <RunErrors store={shown} onSelect={setSelectedTid} />
        {moment.at === null ? (
          <>
            <TaskDetails pid={pid} store={store} tid={selectedTid} />
            <DeliveriesPanel pid={pid} cursor={read.data.cursor} canOperate={canOperate} />
          </>
        ) : (
          <>
            <MomentDetails pid={pid} at={moment.at} store={shown} tid={selectedTid} history={replay.history} />
            <ReplayEvents at={moment.at} events={replay.events} history={replay.history} onSeek={moment.seek} onSelect={setSelectedTid} />
          </>
        )}
      </aside>
      <RunTimeline store={shown} selectedTid={selectedTid} onSelect={setSelectedTid} />
    </div>
  );
}
