/**
 * Sends the notifications table's mails, off the engine's path: a loop that every `pollMs` (or
 * sooner, after `kick`) takes the pending rows that are due (dueNotifications), leases each with a
 * compare-and-set of its `lease_until` (leaseNotification: of several instances only one wins a
 * row), composes it (compose.ts; null: the task was answered meanwhile, the row is `dropped`) and
 * hands it to the SMTP transport. A failure is logged and retried with exponential backoff
 * (RETRY_BASE_MS doubling, at most RETRY_MAX_MS) up to MAX_ATTEMPTS, then the row is `failed` and
 * the error stays on it — never lost silently. A crash mid-send leaves the row leased: after
 * LEASE_MS any instance takes it again (the mail may then go out twice; SMTP has no exactly-once).
 * Once an hour it also deletes old rows (prune.ts).
 *
 * States of a row: pending → (leased) → sent | dropped | pending again (next_time later) → … → failed.
 * The loop's: poll-loop.ts.
 */
import type { Logger } from 'pino';
import type { NotificationRow, NotificationState, ServerStore } from '../store/server-rows.ts';
import { errorMessage } from '../engine/errors.ts';
import { PollLoop } from './poll-loop.ts';
import { PRUNE_EVERY_MS, pruneNotifications } from './prune.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface SenderOptions {
  store: Pick<ServerStore, 'notifications' | 'mailLinkUses' | 'serverQueries'>;
  transport: MailTransport;
  compose: (row: NotificationRow) => Promise<Mail | null>;
  log: Logger;
  /** How long the links of a mail work (link uses are kept longer: prune.ts). */
  linkTtlMs: number;
  now?: () => number;
  pollMs?: number;
}

export const MAX_ATTEMPTS = 8;
export const RETRY_BASE_MS = 5_000;
export const RETRY_MAX_MS = 30 * 60_000;
/** How long a leased row is this instance's to send. */
export const LEASE_MS = 60_000;
const BATCH = 20;

export const retryDelay = (attempts: number): number => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));

export class NotificationSender {
  private readonly loop: PollLoop;
  private readonly now: () => number;
  private prunedAt = 0;

  constructor(private readonly o: SenderOptions) {
    this.now = o.now ?? Date.now;
    this.loop = new PollLoop(() => this.step(), o.pollMs ?? 1000, (err) => o.log.warn({ err: errorMessage(err) }, 'notification e-mails: reading the queue failed'));
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due rows now (new ones were just created). */
  kick(): void {
    this.loop.kick();
  }

  async close(): Promise<void> {
    await this.loop.close();
    this.o.transport.close();
  }

  private async step(): Promise<void> {
    await this.sendDue();
    if (this.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = this.now();
    const pruned = await pruneNotifications(this.o.store, this.prunedAt, this.o.linkTtlMs);
    if (pruned.notifications + pruned.linkUses > 0) this.o.log.info(pruned, 'old notifications and link uses deleted');
  }

  /** One pass over the due rows (the loop's step; a test awaits one to know it ran). */
  async sendDue(): Promise<void> {
    for (let rows = await this.due(); rows.length > 0 && !this.loop.isClosed; rows = await this.due()) {
      for (const row of rows) if (!this.loop.isClosed && (await this.o.store.serverQueries.leaseNotification(row.id, row.lease_until, this.now() + LEASE_MS))) await this.attempt(row);
      if (rows.length < BATCH) return;
    }
  }

  private due(): Promise<NotificationRow[]> {
    return this.o.store.serverQueries.dueNotifications(this.now(), BATCH);
  }

  private async attempt(row: NotificationRow): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      const mail = await this.o.compose(row);
      if (mail) await this.o.transport.send(mail);
      await this.save(row, mail ? 'sent' : 'dropped', { attempts });
      this.o.log.info({ notification: row.id, to: row.user_name, sent: mail !== null }, mail ? 'notification e-mail sent' : 'notification dropped: the task is no longer open');
    } catch (err) {
      const error = errorMessage(err).slice(0, 1000);
      const failed = attempts >= MAX_ATTEMPTS;
      await this.save(row, failed ? 'failed' : 'pending', { attempts, error, next_time: this.now() + retryDelay(attempts) });
      this.o.log[failed ? 'error' : 'warn']({ notification: row.id, to: row.user_name, attempts, err: error }, failed ? `notification e-mail failed ${attempts} times: given up` : 'notification e-mail failed: will retry');
    }
  }

  private async save(row: NotificationRow, state: NotificationState, change: Partial<NotificationRow>): Promise<void> {
    await this.o.store.notifications.update({ ...row, ...change, state, lease_until: 0, update_time: this.now() });
  }
}
