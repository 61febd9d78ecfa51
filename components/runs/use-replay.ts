/**
 * Replay of one run (docs/replay.md): the history model (vocab/run-history.ts) over the run page's
 * live tasks and messages plus `history.run`'s messages, actions and subflow children, and a
 * second RunStore — the replay store — loaded with the run as it was at the moment, which the
 * graph, the errors and the timeline draw instead of the live store while the page replays.
 *
 * State: idle while live (nothing read, nothing subscribed); while replaying, the history read
 * (refreshed every few seconds while the run goes on), the events (rebuilt when a live task or
 * message changes, so the scrubber's end follows live) and the replay store (reloaded before
 * paint whenever the moment or the events change); the play clock (requestAnimationFrame) moves
 * the moment `speed`× real time and stops at the end — at the live end of a running run it goes
 * back to live.
 */
'use client';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { useNow } from '../inbox/use-now.ts';
import type { ApiOutput } from '../data/api-types.ts';
import { historyEvents, historySpan, processStateAt, tasksAt, type HistoryEvent, type WaitsFor } from '../../vocab/run-history.ts';
import { isTerminalName } from '../../vocab/states.ts';
import type { ReplayMoment } from './replay-moment.ts';
import { RunStore, type RunMessage, type RunProcess, type RunTask } from './run-store.ts';
import { useRunSlice } from './use-run.ts';

const REFRESH_MS = 5000;

export type RunHistory = ApiOutput<'history.run'>;

export interface Replay {
  /** The store the page draws: the replay store while replaying, else the live one. */
  shown: RunStore;
  events: readonly HistoryEvent[];
  history: RunHistory | undefined;
  span: { from: number; to: number } | null;
  running: boolean;
}

/** Acts of packages that wait for an answer while open (`irq`, remote workers), from `packages.list`. */
function useWaits(): WaitsFor {
  const packages = useApiQuery('packages.list', undefined, { staleTime: 300_000 });
  return useMemo(() => {
    const waiting = new Set((packages.data?.rows ?? []).filter((p) => p.run_as === 'irq' || p.run_as === 'worker').map((p) => p.id));
    return (uses: string) => waiting.has(uses);
  }, [packages.data]);
}

function processAt(process: RunProcess, t: number): RunProcess {
  const state = processStateAt(process, t) ?? 'none';
  const ended = isTerminalName(state);
  return { ...process, state, end_time: ended ? process.end_time : 0, err: ended ? process.err : null, outcome: ended ? process.outcome : null, stuck_since: 0 };
}

/** The live store's messages and the history's, by id, oldest first. */
function allMessages(live: readonly RunMessage[], read: readonly RunMessage[]): RunMessage[] {
  const byId = new Map<string, RunMessage>(read.map((m) => [m.id, m]));
  for (const m of live) byId.set(m.id, m);
  return [...byId.values()];
}

export function useReplay(pid: string, live: RunStore, moment: ReplayMoment): Replay {
  const active = moment.at !== null;
  const [replayStore] = useState(() => new RunStore());
  const process = useRunSlice(live, (s) => s.process);
  const running = process !== null && !isTerminalName(process.state);
  const timeline = useRunSlice(live, (s) => (active ? s.timeline : null));
  const read = useApiQuery('history.run', { pid }, { enabled: active, refetchOnWindowFocus: false, staleTime: running ? REFRESH_MS : Infinity, refetchInterval: active && running ? REFRESH_MS : false });
  const waits = useWaits();
  // a running run's scrubber end moves with the clock (a finished one's is its end)
  const now = useNow(running ? 1000 : 3_600_000);

  const tasks = useMemo(() => (timeline ? timeline.flatMap((e) => (e.kind === 'task' ? [e.task] : [])) : []), [timeline]);
  const messages = useMemo(() => (timeline ? allMessages(timeline.flatMap((e) => (e.kind === 'message' ? [e.message] : [])), read.data?.messages.rows ?? []) : []), [timeline, read.data]);
  const events = useMemo(() => (timeline ? historyEvents(tasks, messages, read.data?.actions.rows ?? []) : []), [timeline, tasks, messages, read.data]);
  const span = useMemo(() => (process ? historySpan(process, Math.max(running ? now : 0, events.at(-1)?.time ?? 0)) : null), [process, now, events]);

  useLayoutEffect(() => {
    if (moment.at === null || !process) return;
    const t = moment.at;
    // a task open at the moment shows how long it had run by then (not a duration ticking now)
    const then = tasksAt<RunTask>(tasks, t, waits).map((task) => (task.end_time === 0 ? { ...task, end_time: t } : task));
    replayStore.load({ process: processAt(process, t), tasks: then, messages: messages.filter((m) => m.create_time <= t) });
  }, [replayStore, moment.at, process, tasks, messages, waits]);

  usePlayClock(moment, span, running);
  return { shown: active ? replayStore : live, events, history: read.data, span, running };
}

/** Moves the moment while playing: `speed` ms of the run per real ms; at the end it stops (a running run goes live). */
function usePlayClock(moment: ReplayMoment, span: { from: number; to: number } | null, running: boolean): void {
  const { playing, speed, seek, live, setPlaying } = moment;
  const to = span?.to ?? 0;
  const from = span?.from ?? 0;
  const startAt = moment.at;
  const known = span !== null;
  useEffect(() => {
    if (!playing || !known) return;
    let t = startAt === null || startAt >= to ? from : startAt;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(time) {
      t += (time - last) * speed;
      last = time;
      if (t >= to) {
        if (running) live();
        else {
          seek(to);
          setPlaying(false);
        }
        return;
      }
      seek(t);
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
    // the clock keeps its own time while it plays (not the moment it sets, nor a running run's
    // moving end: it goes live when it reaches the end it started with)
  }, [playing, speed, from, running, seek, live, setPlaying, known]);
}
