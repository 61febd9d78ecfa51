/**
 * What the live channel delivers to a room's listeners (server/api/live/payloads.ts and
 * catch-up.ts), and which joined room each socket.io event belongs to. Every event carries a
 * `cursor` (server epoch ms); a room remembers the largest it saw to catch up after a reconnect.
 */
import type { ControlEvent, InboxEvent, MessageEvent, ProcessEvent, TaskEvent } from '../../server/api/live/payloads.ts';
import type { ControlView } from '../../vocab/control.ts';
import type { healthSnapshot } from '../../server/api/live/health-feed.ts';
import type { PresenceEvent } from '../../server/api/live/presence.ts';

export type { ControlEvent, InboxEvent, MessageEvent, PresenceEvent, ProcessEvent, TaskEvent };
export type HealthSnapshot = ReturnType<typeof healthSnapshot>;
export type InboxItem = NonNullable<InboxEvent['item']>;

/** A room's catch-up after a join: what changed since the cursor; `resync` means reload through tRPC. */
export interface CatchUp {
  room: string;
  cursor: number;
  resync?: boolean;
  process?: Pick<ProcessEvent, 'pid' | 'mid' | 'state' | 'err' | 'outcome' | 'outputs'> & { start_time: number; end_time: number; control?: ControlView };
  tasks?: TaskEvent[];
  messages?: MessageEvent[];
  processes?: Array<{ pid: string; mid: string; state: string; start_time: number; end_time: number; err: unknown; outcome?: string | null }>;
  inbox?: InboxItem[];
  health?: HealthSnapshot;
}

export type LiveEvent =
  | { type: 'catchup'; data: CatchUp }
  | { type: 'task'; data: TaskEvent }
  | { type: 'message'; data: MessageEvent }
  | { type: 'process'; data: ProcessEvent }
  /** A process's control changed: paused, resumed, breakpoints, incidents. */
  | { type: 'control'; data: ControlEvent }
  | { type: 'inbox'; data: InboxEvent }
  | { type: 'health'; data: HealthSnapshot & { cursor: number } }
  /** A new audit entry (a hint: read the log again). */
  | { type: 'audit'; data: { cursor: number; action: string } }
  /** Who has a model open in the designer now (`design:<mid>`). */
  | { type: 'presence'; data: PresenceEvent };

export const LIVE_EVENT_TYPES = ['catchup', 'task', 'message', 'process', 'control', 'inbox', 'health', 'audit', 'presence'] as const satisfies ReadonlyArray<LiveEvent['type']>;

/** The rooms a received event is for (a process event goes to its process and to its model). */
export function roomsOf(event: LiveEvent): string[] {
  switch (event.type) {
    case 'catchup':
      return [event.data.room];
    case 'task':
    case 'message':
    case 'control':
      return [`proc:${event.data.pid}`];
    case 'process':
      return [`proc:${event.data.pid}`, `model:${event.data.mid}`];
    case 'inbox':
      return ['inbox'];
    case 'health':
      return ['health'];
    case 'audit':
      return ['audit'];
    case 'presence':
      return [event.data.room];
  }
}

/** Room names: `proc:<pid>`, `model:<mid>`, `design:<mid>` (designers), `inbox`, `health`, `audit` (admins). */
export const liveRoom = {
  proc: (pid: string) => `proc:${pid}`,
  model: (mid: string) => `model:${mid}`,
  design: (mid: string) => `design:${mid}`,
  inbox: 'inbox',
  health: 'health',
  audit: 'audit',
} as const;
