/**
 * The live state of one run page, outside React: tasks by `tid`, messages by `id`, the process,
 * and what the page draws from them — each node's state, the errors by node, and the timeline.
 *
 * State machine: empty → `load(detail)` (a `processes.get` read; also after a `resync`) → live:
 * `applyTasks` / `applyMessages` / `applyProcess` merge events in arrival order (a catch-up may
 * repeat what was seen: tasks are replaced by `tid`, messages by `id`, so repeats change nothing)
 * → `load` again on resync. `setNodeMap` may come before or after `load` (the graph loads apart).
 *
 * Every slice (`process`, `nodeStates`, `nodeErrors`, `errors`, `timeline`, each task) is an
 * immutable value replaced only when it changes, so `useSyncExternalStore` selectors re-render just
 * the components whose slice changed: one task update re-renders one node and one timeline row.
 */
import type { ControlView } from '../../vocab/control.ts';
import type { ProblemLike } from '../designer/model/index.ts';
import type { TaskEvent } from '../../server/api/live/payloads.ts';
import { isNewerTask } from './node-map.ts';
import { END_NODE_ID } from '../../vocab/graph.ts';
import { isTerminalName } from '../../vocab/states.ts';
import { errorReason } from './format.ts';
import { OUTCOME_STATE_PREFIX } from '../ui/states.ts';

export interface TaskError {
  ecode: string;
  message: string;
  /** The declared outcome whose ecode this is (an answer the model offered, not a failure). */
  outcome?: string;
}

/**
 * The state a task is drawn in: a task in `error` whose error is a declared outcome's (known once
 * its error is read) is drawn as that outcome, `outcome:<name>` (ui/states.ts), not as a failure.
 */
export function shownState(task: RunTask): string {
  return task.state === 'error' && task.err?.outcome ? `${OUTCOME_STATE_PREFIX}${task.err.outcome}` : task.state;
}

/** A task in `error` that is a failure, not a declared outcome (drawn in `error`). */
export const failed = (task: RunTask): boolean => shownState(task) === 'error';

/** A task as the run page keeps it: the live event's fields (server/api/live/payloads.ts) and its error. */
export type RunTask = Omit<TaskEvent, 'pid' | 'cursor'> & { err: TaskError | null };

export interface RunMessage {
  id: string;
  tid: string;
  nid: string;
  key: string;
  name: string;
  type: string;
  state: string;
  create_time: number;
}

export interface RunProcess {
  pid: string;
  mid: string;
  name?: string;
  model_ver?: number;
  state: string;
  start_time: number;
  end_time: number;
  err: unknown;
  /** The declared outcome the run ended on (state `completed`); null or absent for any other end. */
  outcome?: string | null;
  /** When nothing could move it any more (epoch ms); 0 or absent: not stuck. */
  stuck_since?: number;
  /** Paused, breakpoints, step over, open incidents, the run it re-runs (vocab/control.ts); absent on old reads. */
  control?: ControlView;
}

export type TimelineEntry = { kind: 'task'; key: string; time: number; task: RunTask } | { kind: 'message'; key: string; time: number; message: RunMessage };

/** A task as events carry it: `err` is absent from live task events (kept from what is known). */
export type TaskInput = Omit<RunTask, 'err'> & { err?: TaskError | null };

export interface RunDetail {
  process: RunProcess;
  tasks: readonly TaskInput[];
  messages: readonly RunMessage[];
}

const RECENT = 2000;

const sameTask = (a: RunTask, b: RunTask) =>
  a.state === b.state && a.end_time === b.end_time && a.start_time === b.start_time && a.err?.ecode === b.err?.ecode && a.err?.message === b.err?.message && a.err?.outcome === b.err?.outcome && a.name === b.name;

const byTime = (a: TimelineEntry, b: TimelineEntry) => a.time - b.time;

export class RunStore {
  private tasks = new Map<string, RunTask>();
  private messages = new Map<string, RunMessage>();
  private nodeOfNid: ReadonlyMap<string, string> = new Map();
  /** The task each graph node shows (its latest). */
  private nodeTask = new Map<string, RunTask>();
  private timelineIndex = new Map<string, number>();
  private listeners = new Set<() => void>();
  private recent: { cursor: number; apply: () => void }[] = [];

  process: RunProcess | null = null;
  nodeStates: Readonly<Record<string, string>> = {};
  nodeErrors: ReadonlyMap<string, readonly ProblemLike[]> = new Map();
  /** Tasks in `error`, in start order. */
  errors: readonly RunTask[] = [];
  timeline: readonly TimelineEntry[] = [];

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  task(tid: string): RunTask | undefined {
    return this.tasks.get(tid);
  }

  /** The task a graph node shows (its latest), if any. */
  taskOfNode(nodeId: string): RunTask | undefined {
    return this.nodeTask.get(nodeId);
  }

  /** The graph node of an engine node id, if the graph has one. */
  nodeOf(nid: string): string | undefined {
    return this.nodeOfNid.get(nid);
  }

  /** Whether the graph's node map is set (node states can be told apart from "not reached"). */
  get mapped(): boolean {
    return this.nodeOfNid.size > 0;
  }

  get taskCount(): number {
    return this.tasks.size;
  }

  /**
   * Replaces everything with a fresh read taken at `cursor`, then re-applies the live events newer
   * than that read which arrived while it was on its way (so a reload never goes back in time).
   */
  load(detail: RunDetail, cursor = 0): void {
    this.tasks = new Map(detail.tasks.map((t) => [t.tid, taskOf(t)]));
    this.messages = new Map(detail.messages.map((m) => [m.id, messageOf(m)]));
    this.process = detail.process;
    this.rebuild();
    const replay = this.recent.filter((r) => r.cursor > cursor);
    this.recent = [];
    for (const r of replay) r.apply();
  }

  /** Remembers what a live event did, for `load` to replay; keeps the last `RECENT` ones. */
  remember(cursor: number, apply: () => void): void {
    this.recent.push({ cursor, apply });
    if (this.recent.length > RECENT) this.recent.splice(0, this.recent.length - RECENT);
  }

  /** Graph node by `nid` (see node-map.ts); the map is kept as given (not changed afterwards), the same map again changes nothing. */
  setNodeMap(nodeOfNid: ReadonlyMap<string, string>): void {
    if (nodeOfNid === this.nodeOfNid) return;
    this.nodeOfNid = nodeOfNid;
    this.rebuildNodes();
    this.emit();
  }

  applyTasks(events: readonly TaskInput[]): void {
    const changed: RunTask[] = [];
    const added: RunTask[] = [];
    let errorsTouched = false;
    for (const event of events) {
      const old = this.tasks.get(event.tid);
      const task = taskOf(event, old);
      if (old && sameTask(old, task)) continue;
      if (task.state === 'error' || old?.state === 'error') errorsTouched = true;
      this.tasks.set(task.tid, task);
      (old ? changed : added).push(task);
    }
    if (!changed.length && !added.length) return;
    const entries = [...changed, ...added].map(taskEntry);
    this.mergeTimeline(entries);
    let states: Record<string, string> | null = null;
    for (const task of [...changed, ...added]) {
      const nodeId = this.nodeOfNid.get(task.nid);
      const shown = nodeId === undefined ? undefined : this.nodeTask.get(nodeId);
      if (nodeId === undefined || !isNewerTask(task, shown)) continue;
      if (shown?.state === 'error') errorsTouched = true;
      this.nodeTask.set(nodeId, task);
      const state = shownState(task);
      if (this.nodeStates[nodeId] !== state) {
        states ??= { ...this.nodeStates };
        states[nodeId] = state;
      }
    }
    if (states) this.nodeStates = states;
    if (errorsTouched) this.rebuildErrors();
    this.emit();
  }

  /** Sets the error of a task (live task events do not carry it; the page reads it with `tasks.get`). */
  setTaskError(tid: string, err: TaskError | null): void {
    const old = this.tasks.get(tid);
    if (!old || !err) return;
    this.applyTasks([{ ...old, err }]);
  }

  applyMessages(events: readonly RunMessage[]): void {
    const entries: TimelineEntry[] = [];
    for (const m of events) {
      const old = this.messages.get(m.id);
      if (old && old.state === m.state) continue;
      const message = messageOf(m);
      this.messages.set(m.id, message);
      entries.push({ kind: 'message', key: `m:${m.id}`, time: m.create_time, message });
    }
    if (!entries.length) return;
    this.mergeTimeline(entries);
    this.emit();
  }

  applyProcess(update: Partial<RunProcess> & { state: string }): void {
    if (!this.process) return;
    const next = { ...this.process, ...update };
    if (next.state === this.process.state && next.end_time === this.process.end_time && next.outcome === this.process.outcome) return;
    this.process = next;
    this.nodeStates = withEnd(this.nodeStates, next.state);
    this.emit();
  }

  /** The process's control changed (a live `control` event, a control call's answer). */
  applyControl(control: ControlView): void {
    if (!this.process || JSON.stringify(this.process.control) === JSON.stringify(control)) return;
    this.process = { ...this.process, control };
    this.emit();
  }

  private rebuild(): void {
    const entries = [...[...this.tasks.values()].map(taskEntry), ...[...this.messages.values()].map(messageEntry)].sort(byTime);
    this.setTimeline(entries);
    this.rebuildNodes();
    this.emit();
  }

  private rebuildNodes(): void {
    this.nodeTask = new Map();
    for (const task of this.tasks.values()) {
      const nodeId = this.nodeOfNid.get(task.nid);
      if (nodeId !== undefined && isNewerTask(task, this.nodeTask.get(nodeId))) this.nodeTask.set(nodeId, task);
    }
    const states: Record<string, string> = {};
    for (const [nodeId, task] of this.nodeTask) states[nodeId] = shownState(task);
    this.nodeStates = withEnd(states, this.process?.state);
    this.rebuildErrors();
  }

  private rebuildErrors(): void {
    const errors = [...this.tasks.values()].filter(failed).sort((a, b) => a.start_time - b.start_time);
    if (errors.length !== this.errors.length || errors.some((t, i) => t !== this.errors[i])) this.errors = errors;
    const byNode = new Map<string, ProblemLike[]>();
    for (const [nodeId, task] of this.nodeTask) {
      if (!failed(task)) continue;
      const text = task.err ? errorReason(task.err) : 'error (loading the code and message…)';
      byNode.set(nodeId, [{ path: '', message: text, code: task.err?.ecode }]);
    }
    if (!sameProblems(byNode, this.nodeErrors)) this.nodeErrors = byNode;
  }

  /** Replaces changed entries in place and inserts new ones in time order (one copy per batch). */
  private mergeTimeline(entries: readonly TimelineEntry[]): void {
    const next = [...this.timeline];
    let unsorted = false;
    for (const entry of entries) {
      const at = this.timelineIndex.get(entry.key);
      if (at !== undefined) {
        if (next[at].time !== entry.time) unsorted = true;
        next[at] = entry;
        continue;
      }
      if (next.length > 0 && next[next.length - 1].time > entry.time) unsorted = true;
      this.timelineIndex.set(entry.key, next.length);
      next.push(entry);
    }
    if (unsorted) this.setTimeline(next.sort(byTime));
    else this.timeline = next;
  }

  private setTimeline(entries: TimelineEntry[]): void {
    this.timeline = entries;
    this.timelineIndex = new Map(entries.map((e, i) => [e.key, i]));
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The fields the page keeps of a task (reads carry variables too: those are fetched per task). */
function taskOf(t: TaskInput, old?: RunTask): RunTask {
  const err = t.err !== undefined ? t.err : t.state === 'error' ? (old?.err ?? null) : null;
  return { tid: t.tid, nid: t.nid, kind: t.kind, key: t.key, name: t.name, uses: t.uses, state: t.state, parent: t.parent, start_time: t.start_time, end_time: t.end_time, err };
}

function messageOf(m: RunMessage): RunMessage {
  return { id: m.id, tid: m.tid, nid: m.nid, key: m.key, name: m.name, type: m.type, state: m.state, create_time: m.create_time };
}

function taskEntry(task: RunTask): TimelineEntry {
  return { kind: 'task', key: `t:${task.tid}`, time: task.start_time, task };
}

function messageEntry(message: RunMessage): TimelineEntry {
  return { kind: 'message', key: `m:${message.id}`, time: message.create_time, message };
}

/** The end node shows how the process ended (nothing while it runs). */
function withEnd(states: Readonly<Record<string, string>>, processState: string | undefined): Readonly<Record<string, string>> {
  const end = processState && isTerminalName(processState) ? processState : undefined;
  if (states[END_NODE_ID] === end) return states;
  const next = { ...states };
  if (end === undefined) delete next[END_NODE_ID];
  else next[END_NODE_ID] = end;
  return next;
}

function sameProblems(a: ReadonlyMap<string, readonly ProblemLike[]>, b: ReadonlyMap<string, readonly ProblemLike[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, list] of a) if (b.get(id)?.[0]?.message !== list[0]?.message) return false;
  return true;
}
