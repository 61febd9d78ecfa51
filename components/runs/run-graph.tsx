/**
 * The run's model drawn read-only with FlowCanvas, each node coloured by its live task state and
 * carrying its error (red corner badge with `ecode: message`). The graph comes from the snapshot
 * the process runs (`processes.model`), and the node map from its path → node id table
 * (node-map.ts). Only `nodeStates`/`nodeErrors` change while the run goes on, and FlowCanvas keeps
 * every unchanged node object, so one state change renders one node.
 */
'use client';
import { useEffect, useMemo } from 'react';
import { layout, toGraph } from '../designer/model/index.ts';
import { useApiQuery } from '../data/use-api.ts';
import { FlowCanvas } from '../graph/index.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { graphNodeByNid } from './node-map.ts';
import type { RunStore } from './run-store.ts';
import styles from './run.module.css';
import { useRunSlice } from './use-run.ts';

export interface RunGraphProps {
  pid: string;
  store: RunStore;
  selected: string | null;
  onSelect: (nodeId: string | null) => void;
}

export function RunGraph({ pid, store, selected, onSelect }: RunGraphProps) {
  const model = useApiQuery('processes.model', { pid }, { staleTime: Infinity, refetchOnWindowFocus: false });
  const graph = useMemo(() => (model.data ? toGraph(model.data.source) : null), [model.data]);
  const laidOut = useMemo(() => (graph ? layout(graph) : null), [graph]);
  useEffect(() => {
    if (graph && model.data) store.setNodeMap(graphNodeByNid(graph, model.data.nodes));
  }, [store, graph, model.data]);
  const states = useRunSlice(store, (s) => s.nodeStates);
  const problems = useRunSlice(store, (s) => s.nodeErrors);

  if (model.error) return <ErrorNote error={model.error} title="The run's model could not be read" onRetry={() => void model.refetch()} />;
  if (!graph || !laidOut) return <Spinner label="Loading the graph" />;
  return (
    <div className={styles.graph} data-testid="run-graph">
      <FlowCanvas graph={graph} layout={laidOut} states={states} problems={problems} selected={selected} onSelect={onSelect} fitKey={pid} ariaLabel="Run graph" />
    </div>
  );
}
