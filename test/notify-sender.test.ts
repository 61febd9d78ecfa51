/**
 * The notification queue over time, with an injected clock, a real SMTP server on 127.0.0.1 and a
 * real SQLite store: a refused delivery is retried with backoff (5 s, 10 s, … as the clock moves)
 * and given up as `failed` after MAX_ATTEMPTS with its error kept; a mail whose task was answered
 * before it went out is `dropped`; a restart sends what arrived within the lookback once and never
 * again, and nothing older; rows are deleted after 30 days.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import type { MailConfig } from '../server/notify/config.ts';
import { startNotifications, type Notifications } from '../server/notify/index.ts';
import { MAX_ATTEMPTS, retryDelay } from '../server/notify/sender.ts';
import { LOOKBACK_MS } from '../server/notify/watch.ts';
import { KEEP_MS, pruneNotifications } from '../server/notify/prune.ts';
import type { NotificationRow } from '../server/store/server-rows.ts';
import { eventually } from './helpers/eventually.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';
import { startSmtpPeer, type SmtpPeer } from './helpers/smtp-peer.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'] };

describe('the notification queue over time (sqlite)', () => {
  let t: TestServer;
  let smtp: SmtpPeer;
  let config: MailConfig;
  let clock = 0;
  const running: Notifications[] = [];

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    config = { smtpUrl: smtp.url, from: 'acts <acts@test.local>', publicUrl: 'http://acts.test', linkKey: Buffer.from('k'.repeat(40)), linkTtlMs: 3_600_000, maxRecipients: 10 };
    t = await startTestServer({ users });
    await t.as('admin').users.setEmail.mutate({ id: t.users.carol.id, email: 'carol@example.com' });
    await t.as('designer').models.deploy.mutate({ source: 'id: q\nname: q\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.irq, key: ok, params: { title: Q, candidate_users: [carol] } }\n' });
  });
  afterAll(async () => {
    for (const n of running) await n.close();
    await t?.close();
    await smtp?.close();
  });

  function start(at: number): Notifications {
    clock = at;
    const n = startNotifications({ engine: t.engine, auth: t.auth, store: t.store, config, log: pino({ level: 'silent' }), now: () => clock, watchMs: 30, sendMs: 30 });
    running.push(n);
    return n;
  }
  async function stop(n: Notifications) {
    await n.close();
    running.splice(running.indexOf(n), 1);
  }
  async function open() {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'q' });
    await t.engine.idle();
    const tid = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'ok' && x.kind === 'act')!.tid;
    return { pid, tid, id: `arrived/${pid}/${tid}/carol` };
  }
  const row = (id: string) => t.store.notifications.find(id);
  const rowWhere = (id: string, ok: (r: NotificationRow) => boolean, what: string) => eventually(async () => ((r) => (r && ok(r) ? r : false))(await row(id)), what, 750);

  it('retries a refused delivery with backoff as time passes, then gives it up as failed, its error kept', async () => {
    const n = start(Date.now());
    smtp.refuseNext(1000);
    const { id } = await open();
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const r = await rowWhere(id, (x) => x.attempts === attempt, `attempt ${attempt}`);
      expect(r).toMatchObject({ state: 'pending', error: expect.stringContaining('try again later'), next_time: clock + retryDelay(attempt) });
      clock += retryDelay(attempt) - 1;
      await n.sender.sendDue();
      // not due yet: one ms short of the backoff, it stays at this attempt
      expect((await row(id))?.attempts).toBe(attempt);
      clock += 1;
      await n.sender.sendDue();
    }
    expect(await rowWhere(id, (x) => x.state === 'failed', 'given up')).toMatchObject({ attempts: MAX_ATTEMPTS, error: expect.stringContaining('try again later') });
    expect(smtp.mails).toHaveLength(0);
    expect(retryDelay(1)).toBe(5_000);
    expect(retryDelay(2)).toBe(10_000);
    expect(retryDelay(20)).toBe(30 * 60_000);
    smtp.refuseNext(0);
    await stop(n);
  });

  it('drops a mail whose task was answered before it went out', async () => {
    const n = start(Date.now());
    smtp.refuseNext(1);
    const { pid, tid, id } = await open();
    await rowWhere(id, (x) => x.attempts === 1, 'the first, refused attempt');
    await t.as('carol').tasks.complete.mutate({ pid, tid, options: {} });
    await t.engine.idle();
    clock += retryDelay(1);
    await n.sender.sendDue();
    expect(await rowWhere(id, (x) => x.state !== 'pending', 'the row settled')).toMatchObject({ state: 'dropped', attempts: 2 });
    expect(smtp.mails.filter((m) => m.body.includes(pid))).toHaveLength(0);
    await stop(n);
  });

  it('deletes done notifications and link uses after 30 days, never a pending one', async () => {
    const now = Date.now();
    const old = now - KEEP_MS - 1;
    const base: NotificationRow = { id: '', kind: 'arrived', pid: 'px', tid: 'tx', user_name: 'carol', email: 'c@example.com', state: 'sent', attempts: 1, next_time: old, lease_until: 0, error: null, create_time: old, update_time: old };
    await t.store.notifications.create({ ...base, id: 'old-sent' });
    await t.store.notifications.create({ ...base, id: 'old-pending', state: 'pending' });
    await t.store.notifications.create({ ...base, id: 'new-sent', update_time: now });
    await t.store.mailLinkUses.create({ id: 'old-use', pid: 'px', tid: 'tx', user_name: 'carol', action: 'approve', use_time: old, result: 'ok' });
    await t.store.mailLinkUses.create({ id: 'new-use', pid: 'px', tid: 'tx', user_name: 'carol', action: 'approve', use_time: now, result: 'ok' });
    expect(await pruneNotifications(t.store, now, config.linkTtlMs)).toEqual({ notifications: 1, linkUses: 1 });
    expect(await row('old-sent')).toBeUndefined();
    expect(await row('old-pending')).toBeDefined();
    expect(await row('new-sent')).toBeDefined();
    expect(await t.store.mailLinkUses.find('old-use')).toBeUndefined();
    expect(await t.store.mailLinkUses.find('new-use')).toBeDefined();
    for (const id of ['old-pending', 'new-sent']) await t.store.notifications.delete(id);
  });

  it('a restart mails what arrived within the lookback once, never twice, and nothing older', async () => {
    // arrives while no notifier runs
    const recent = await open();
    const first = start(Date.now());
    await eventually(() => smtp.mails.some((m) => m.body.includes(recent.pid)), 'the mail of a task that arrived before the start', 750);
    await stop(first);
    const again = start(Date.now());
    await again.watch.sweep();
    await again.watch.sweep();
    expect(smtp.mails.filter((m) => m.body.includes(recent.pid))).toHaveLength(1);
    expect((await row(recent.id))?.state).toBe('sent');
    await stop(again);

    // a task older than the lookback when the server starts is not mailed
    const old = await open();
    const late = start(Date.now() + LOOKBACK_MS + 60_000);
    await late.watch.sweep();
    expect(await row(old.id)).toBeUndefined();
    await stop(late);
  });
});
