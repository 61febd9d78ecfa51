/**
 * One run, live: reads `processes.summary` (every task's state, no variables) into a RunStore, joins `proc:<pid>` with that read's cursor
 * and applies events to the store (tasks by `tid`, messages by `id`, the process state); a `resync`
 * catch-up reads the process again. Live task events carry no error, so a task that enters
 * `error` gets its code and message with `tasks.get`.
 *
 * State: loading (no read yet) → live (store filled, room joined) ⇄ reloading (resync or retry;
 * the store keeps showing the last state and replays events newer than the new read).
 */
'use client';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../data/api-client.ts';
import { liveRoom, useLive, type LiveEvent } from '../data/live.tsx';
import { useApiQuery } from '../data/use-api.ts';
import { nodeMapOf } from './node-map.ts';
import { layOutAhead } from './run-graph-layout.ts';
import { RunStore } from './run-store.ts';

function useErrorLookup(store: RunStore, pid: string) {
  return useCallback(
    (tid: string) => {
      void api.tasks.get
        .query({ pid, tid })
        .then(({ task }) => store.setTaskError(tid, task.err))
        .catch(() => undefined);
    },
    [store, pid],
  );
}

/** The process read, the store it feeds and the live join's error. */
export function useRun(pid: string) {
  const [store] = useState(() => new RunStore());
  const read = useApiQuery('processes.summary', { pid }, { refetchOnWindowFocus: false, staleTime: Infinity });
  // The graph (drawn on the server) is read at the same time (RunGraph shares this read), not after
  // the tasks, and its node map set as soon as it is here, while the server still gathers the tasks:
  // the tasks then land on their nodes as they are loaded, and the graph, laid out meanwhile, is drawn in one go.
  const graph = useApiQuery('processes.graph', { pid }, { staleTime: Infinity, refetchOnWindowFocus: false });
  useEffect(() => {
    if (!graph.data) return;
    store.setNodeMap(nodeMapOf(graph.data.graph, graph.data.nodes));
    layOutAhead(graph.data.graph);
  }, [store, graph.data]);
  const lookupError = useErrorLookup(store, pid);

  useEffect(() => {
    if (!read.data) return;
    const { process, tasks, messages, cursor } = read.data;
    store.load({ process, tasks, messages: messages.rows }, cursor);
  }, [store, read.data]);

  const refetch = read.refetch;
  const onEvent = useCallback(
    (event: LiveEvent) => {
      const cursor = event.data.cursor;
      const apply = () => applyEvent(store, event, lookupError);
      if (event.type === 'catchup' && event.data.resync) return void refetch();
      store.remember(cursor, apply);
      apply();
    },
    [store, refetch, lookupError],
  );
  const live = useLive(read.data ? liveRoom.proc(pid) : null, read.data?.cursor ?? null, onEvent);
  return { store, read, liveError: live.error };
}

function applyEvent(store: RunStore, event: LiveEvent, lookupError: (tid: string) => void): void {
  switch (event.type) {
    case 'task':
      store.applyTasks([event.data]);
      if (event.data.state === 'error' && !store.task(event.data.tid)?.err) lookupError(event.data.tid);
      return;
    case 'message':
      return store.applyMessages([event.data]);
    case 'process':
      return store.applyProcess({ state: event.data.state, err: event.data.err, outcome: event.data.outcome });
    case 'control':
      return store.applyControl(event.data.control);
    case 'catchup': {
      const { process, tasks, messages } = event.data;
      if (tasks?.length) {
        store.applyTasks(tasks);
        for (const t of tasks) if (t.state === 'error' && !store.task(t.tid)?.err) lookupError(t.tid);
      }
      if (messages?.length) store.applyMessages(messages);
      if (process) store.applyProcess({ state: process.state, err: process.err, outcome: process.outcome, end_time: process.end_time });
      if (process?.control) store.applyControl(process.control);
      return;
    }
    default:
      return;
  }
}

/** A slice of the store; re-renders only when that slice is a new value. */
export function useRunSlice<T>(store: RunStore, select: (store: RunStore) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store), () => select(store));
}
