/**
 * Finds what to notify, from the store (the truth on every instance), never from the engine's
 * hot path: every `pollMs` — and soon after a batch that put a task in `interrupted` was written
 * (the engine's events are only hints) — it reads the inbox's newest tasks back to a watermark
 * (`arrived`) and the tasks that fell due since the last look (`due`; a task that arrives already
 * past due gets its `due` mail at once), and creates one notifications row per task, kind and
 * recipient (recipients.ts; a held task's only recipient is its holder). A task escalated on this
 * instance (its task event says so) mails its new candidates once (`escalated`); an escalation
 * whose instance stopped before its sweep is not mailed (the inbox still shows it). The row's id is
 * `<kind>/<pid>/<tid>/<user>`, so a row is created once whichever instance (or restart) sees the
 * task first; the sender (sender.ts) sends it.
 *
 * At start the watermarks are LOOKBACK_MS back: tasks that arrived or fell due in that window and
 * have no row yet get one (a restart re-sends nothing already queued or sent); older ones are
 * never mailed. Tasks offered to no one in particular are not mailed (recipients.ts).
 *
 * State: the loop's (poll-loop.ts: one sweep at a time, a hint during one runs another after it);
 * the two watermarks; the keys of rows made recently (so a sweep does not try them again).
 */
import type { Logger } from 'pino';
import type { Auth, UserInfo } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import type { InboxAnswer } from '../runtime/read-model-types.ts';
import type { NotificationRow, ServerStore } from '../store/server-rows.ts';
import { errorMessage } from '../engine/errors.ts';
import { assignmentOf, EVERY_TASK } from '../../vocab/inbox-principals.ts';
import type { NotificationKind } from './compose.ts';
import { PollLoop } from './poll-loop.ts';
import { lastEscalation } from '../../vocab/escalations.ts';
import { recipientsOf, type Recipient } from './recipients.ts';

type InboxItem = InboxAnswer['tasks'][number];

/** A task to mail about: who holds it (its only recipient then), else everyone it is offered to. */
interface NotifiedTask {
  pid: string;
  tid: string;
  holder: string | null;
}

const notified = (t: InboxItem): NotifiedTask => ({ pid: t.pid, tid: t.tid, holder: t.hold.holder });

export interface WatchOptions {
  engine: Engine;
  auth: Pick<Auth, 'users'>;
  store: Pick<ServerStore, 'notifications'>;
  maxRecipients: number;
  /** Called when rows were created (the sender looks now). */
  onCreated: () => void;
  log: Logger;
  now?: () => number;
  pollMs?: number;
}

export const LOOKBACK_MS = 15 * 60_000;
/** How far behind the newest start seen the arrivals' watermark stays (a task's row may be written after a later one's). */
const SLACK_MS = 60_000;
const PAGE = 200;
const KEYS_KEPT = 20_000;

export class InboxWatch {
  private arrivedFrom: number;
  private dueFrom: number;
  private readonly made = new Set<string>();
  /** Tasks escalated here since the last sweep (heard from the engine's task events), by `pid/tid`. */
  private readonly escalated = new Map<string, NotifiedTask>();
  private readonly loop: PollLoop;
  private hinted = false;
  private offs: Array<() => void> = [];
  private readonly now: () => number;

  constructor(private readonly o: WatchOptions) {
    this.now = o.now ?? Date.now;
    this.arrivedFrom = this.dueFrom = this.now() - LOOKBACK_MS;
    this.loop = new PollLoop(() => this.sweep(), o.pollMs ?? 2000, (err) => o.log.warn({ err: errorMessage(err) }, 'inbox notifications: reading the inbox failed; trying again'));
  }

  start(): void {
    this.offs.push(
      this.o.engine.on('task', ({ task }) => {
        if (task.state !== 'interrupted') return;
        this.hinted = true;
        const escalation = task.paramsReady ? lastEscalation(task.params) : null;
        if (escalation && escalation.at >= this.now() - LOOKBACK_MS) this.escalated.set(`${task.pid}/${task.tid}`, { pid: task.pid, tid: task.tid, holder: escalation.to?.assignee ?? null });
      }),
      this.o.engine.on('committed', () => {
        if (!this.hinted) return;
        this.hinted = false;
        this.kick();
      }),
    );
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  async close(): Promise<void> {
    for (const off of this.offs) off();
    await this.loop.close();
  }

  /** One look at the inbox: new arrivals, then what fell due. */
  async sweep(): Promise<void> {
    const users = lazy(() => this.o.auth.users.list());
    const now = this.now();
    let newest = this.arrivedFrom;
    for (let offset = 0; !this.loop.isClosed; offset += PAGE) {
      const page = await this.o.engine.reads.inbox({ principals: [EVERY_TASK], newestFirst: true, offset, limit: PAGE });
      const fresh = page.tasks.filter((t) => t.start_time >= this.arrivedFrom);
      for (const t of fresh) {
        newest = Math.max(newest, t.start_time);
        await this.notify('arrived', notified(t), users);
        if (t.due_time <= now) await this.notify('due', notified(t), users);
      }
      if (fresh.length < page.tasks.length || page.tasks.length < PAGE) break;
    }
    this.arrivedFrom = Math.max(this.arrivedFrom, newest - SLACK_MS);
    for (let offset = 0; !this.loop.isClosed; offset += PAGE) {
      const page = await this.o.engine.reads.inbox({ principals: [EVERY_TASK], dueFrom: this.dueFrom, dueBefore: now, order: 'due', offset, limit: PAGE });
      for (const t of page.tasks) await this.notify('due', notified(t), users);
      if (page.tasks.length < PAGE) break;
    }
    this.dueFrom = now;
    for (const [key, task] of this.escalated) {
      this.escalated.delete(key);
      await this.notify('escalated', task, users);
    }
  }

  private async notify(kind: NotificationKind, t: NotifiedTask, users: () => Promise<UserInfo[]>): Promise<void> {
    const task = `${kind}/${t.pid}/${t.tid}`;
    if (this.made.has(task)) return;
    const recipients = await this.recipients(t, await users());
    let created = 0;
    for (const r of recipients) if (await this.create(kind, t, r)) created++;
    this.remember(task);
    if (created > 0) this.o.onCreated();
  }

  private async recipients(t: NotifiedTask, users: UserInfo[]): Promise<Recipient[]> {
    if (t.holder) {
      const holder = users.find((u) => u.name === t.holder && u.email && !u.disabled);
      return holder ? [{ name: holder.name, email: holder.email! }] : [];
    }
    const params = (await this.o.engine.tasks.get(t.pid, t.tid).catch(() => null))?.params;
    return recipientsOf(assignmentOf(params), users, this.o.maxRecipients);
  }

  /** Creates the row; false when another instance (or an earlier run) made it. */
  private async create(kind: NotificationKind, t: NotifiedTask, r: Recipient): Promise<boolean> {
    const now = this.now();
    const row: NotificationRow = {
      id: `${kind}/${t.pid}/${t.tid}/${r.name}`,
      kind,
      pid: t.pid,
      tid: t.tid,
      user_name: r.name,
      email: r.email,
      state: 'pending',
      attempts: 0,
      next_time: now,
      lease_until: 0,
      error: null,
      create_time: now,
      update_time: now,
    };
    try {
      await this.o.store.notifications.create(row);
      return true;
    } catch (err) {
      if (await this.o.store.notifications.exists(row.id)) return false;
      throw err;
    }
  }

  private remember(key: string): void {
    this.made.add(key);
    if (this.made.size > KEYS_KEPT) this.made.delete(this.made.values().next().value!);
  }
}

function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}
