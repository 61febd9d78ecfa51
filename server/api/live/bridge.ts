/**
 * Engine events → socket.io rooms, all from the typed engine event map (runtime/events.ts): task
 * state changes (`task`, every state incl. `running`, so a graph can colour each node), messages
 * (`message`) and the process lifecycle (`started`; `finished`: completed, aborted or errored).
 * Events are queued synchronously inside the engine's job (in emission order, each stamped
 * with its cursor), sealed on the next macrotask with the engine's latest batch number, and
 * emitted once that batch is in the store (the engine's `committed` event) — so jobs never wait
 * for sockets, and a client of ANY instance that missed an event live (it joined just after it
 * went out) finds its effect in the store when its catch-up reads it. (Messages and process
 * events no longer take a second route through an engine channel: they keep their place among a
 * job's task events, and a slow channel handler of the same process cannot hold them back.)
 *
 * State: idle ⇄ scheduled (a seal is queued on setImmediate); sealed groups wait for their batch
 * to commit, then go out in order; → closed (listeners removed, everything pending emitted).
 * It also remembers the open inbox tasks it saw (to route their removal, or an escalation's
 * move to other rooms) and the recent
 * removals (inbox catch-up drops items removed while its snapshot was read).
 */
import type { Server } from 'socket.io';
import type { Engine } from '../../runtime/engine.ts';
import { taskSummary } from '../../runtime/info.ts';
import type { Message } from '../../engine/messages.ts';
import type { Process } from '../../engine/process.ts';
import type { Task } from '../../engine/task.ts';
import { assignmentOf } from '../inbox-access.ts';
import { isTerminalName } from '../../../vocab/states.ts';
import { lastEscalation } from '../../../vocab/escalations.ts';
import { inboxEvent, messageEvent, processEvent, taskEvent, type ControlEvent, type ProcessChange } from './payloads.ts';
import { controlView } from '../../engine/control.ts';
import { heardAnywhere } from './heard-broadcast.ts';
import { assignmentRooms, modelRoom, procRoom } from './rooms.ts';

interface Queued {
  rooms: string[];
  event: string;
  payload: unknown;
}

const REMOVALS_KEPT = 1000;

/** How a process's end is told: `errored` (channels' `on_error`), else `aborted` or `completed`. */
function finishedChange(procState: string, messageState: string): ProcessChange {
  if (procState === 'error') return 'errored';
  return messageState === 'aborted' ? 'aborted' : 'completed';
}

export class LiveBridge {
  private queue: Queued[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private offs: Array<() => void> = [];
  private lastCursor = 0;
  /** Sealed groups of events, each waiting for engine batch `upTo` to be written. */
  private sealed: Array<{ upTo: number; items: Queued[] }> = [];
  private committedSeq = 0;
  /** Open inbox tasks seen here (`pid/tid` → rooms of their assignment). */
  private readonly open = new Map<string, string[]>();
  private readonly removals: Array<{ key: string; cursor: number }> = [];
  private irqPackages = new Set<string>(['acts.core.irq']);

  constructor(
    private readonly engine: Engine,
    private readonly io: Server,
    private readonly now: () => number,
    private readonly onFlushed: () => void,
  ) {}

  async start(): Promise<void> {
    const packages = await this.engine.packages.list({ limit: 1000 });
    for (const p of packages.rows) if (p.run_as === 'irq') this.irqPackages.add(p.id);
    this.committedSeq = this.engine.batchSeq();
    this.offs.push(
      this.engine.on('task', ({ proc, task }) => this.onTask(proc, task)),
      this.engine.on('message', (m) => this.push([procRoom(m.pid)], 'message', messageEvent(m, this.cursor()))),
      this.engine.on('control', ({ proc }) => this.onControl(proc)),
      this.engine.on('started', ({ message }) => this.onProcess(message, 'started')),
      this.engine.on('finished', ({ proc, message }) => this.onProcess(message, finishedChange(proc.state, message.state), proc.outcome)),
      this.engine.on('committed', ({ seq }) => {
        this.committedSeq = Math.max(this.committedSeq, seq);
        this.release();
      }),
    );
  }

  /** A cursor: the current time, never below an earlier one. */
  cursor(): number {
    this.lastCursor = Math.max(this.lastCursor, this.now());
    return this.lastCursor;
  }

  /** A control change; the task a pause stopped before (created, never started: no task event told it) goes first. */
  private onControl(proc: Process): void {
    const held = proc.control?.paused?.tid ? proc.tasks.get(proc.control.paused.tid) : undefined;
    if (held) this.push([procRoom(proc.pid)], 'task', taskEvent(taskSummary(held), this.cursor()));
    this.push([procRoom(proc.pid)], 'control', { pid: proc.pid, control: controlView(proc), cursor: this.cursor() } satisfies ControlEvent);
  }

  private onProcess(m: Message, change: ProcessChange, outcome: string | null = null): void {
    this.push([procRoom(m.pid), modelRoom(m.mid)], 'process', processEvent(m, change, this.cursor(), outcome));
  }

  private onTask(proc: Process, task: Task): void {
    // the task's fields without copies of its variables (taskInfo's): an event per state change
    const info = taskSummary(task);
    const cursor = this.cursor();
    this.push([procRoom(info.pid)], 'task', taskEvent(info, cursor));
    if (info.kind !== 'act') return;
    const key = `${info.pid}/${info.tid}`;
    if (info.state === 'interrupted') {
      const params = task.paramsReady ? task.params : null;
      const assignment = assignmentOf(params);
      const rooms = assignmentRooms(assignment);
      // an escalation offers an open task to others: those it no longer is offered to lose it
      const gone = (this.open.get(key) ?? []).filter((room) => !rooms.includes(room));
      if (gone.length > 0) this.push(gone, 'inbox', inboxEvent('removed', info.pid, info.tid, null, cursor));
      this.open.set(key, rooms);
      const escalation = lastEscalation(params);
      const item = { pid: info.pid, tid: info.tid, nid: info.nid, key: info.key, name: info.name, uses: info.uses, mid: proc.mid, model_name: proc.workflow.name, params, assignment, start_time: info.start_time, ...(escalation ? { escalation } : {}) };
      this.push(rooms, 'inbox', inboxEvent('added', info.pid, info.tid, item, cursor));
    } else if (isTerminalName(info.state) && (this.open.has(key) || this.irqPackages.has(info.uses))) {
      const rooms = this.open.get(key) ?? assignmentRooms(assignmentOf(task.paramsReady ? task.params : null));
      this.open.delete(key);
      this.removals.push({ key, cursor });
      if (this.removals.length > REMOVALS_KEPT) this.removals.shift();
      this.push(rooms, 'inbox', inboxEvent('removed', info.pid, info.tid, null, cursor));
    }
  }

  /** Inbox tasks (`pid/tid`) removed at or after `cursor` on this instance. */
  removedSince(cursor: number): Set<string> {
    return new Set(this.removals.filter((r) => r.cursor >= cursor).map((r) => r.key));
  }

  private push(rooms: string[], event: string, payload: unknown): void {
    this.queue.push({ rooms, event, payload });
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Seals the queued events (they wait for the engine's latest batch) and emits what is written. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.queue.length > 0) {
      this.sealed.push({ upTo: this.engine.batchSeq(), items: this.queue });
      this.queue = [];
    }
    this.release();
  }

  private release(force = false): void {
    let emitted = false;
    while (this.sealed.length > 0 && (force || this.sealed[0].upTo <= this.committedSeq)) {
      const { adapter } = this.io.sockets;
      for (const q of this.sealed.shift()!.items) if (heardAnywhere(adapter, q.rooms)) this.io.to(q.rooms).emit(q.event, q.payload);
      emitted = true;
    }
    if (emitted) this.onFlushed();
  }

  close(): void {
    this.flush();
    this.release(true);
    for (const off of this.offs.splice(0)) off();
  }
}
