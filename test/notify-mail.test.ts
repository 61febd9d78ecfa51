/**
 * Inbox notifications by e-mail (issue: the operator inbox for real teams, item 7), against a real
 * SMTP server the test starts on 127.0.0.1 (helpers/smtp-peer.ts), over real HTTP, on SQLite and
 * PostgreSQL: a task offered to a group mails its members who have an address, once each; its
 * one-click links confirm on GET (changing nothing) and answer on POST, once; every refusal with
 * its code — used twice, answered elsewhere, bad signature, expired, a user no longer allowed, a
 * task held by another —, each use audited; a task past due mails `due` once; declared outcomes
 * become the links (not those that need a comment); an escalation mails the task's new candidates.
 * On PostgreSQL two instances on one database
 * send each mail once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import type { MailConfig } from '../server/notify/config.ts';
import { newLink, signLink } from '../server/notify/links.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { apiError, startTestServer, USERS, type TestServer } from './helpers/server.ts';
import { linksOf, startSmtpPeer, type ReceivedMail, type SmtpPeer } from './helpers/smtp-peer.ts';
import { eventually } from './helpers/eventually.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'], dave: ['operator'] };
const KEY = 'k'.repeat(40);

const model = (id: string, params: string) => `id: ${id}
name: ${id}
steps:
  - id: decide
    acts:
      - { uses: acts.core.irq, key: approve, params: ${params} }
`;

describe.each(['sqlite', 'postgresql'] as const)('inbox notifications by e-mail (%s)', (backend) => {
  let t: TestServer;
  let smtp: SmtpPeer;
  let config: MailConfig;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    config = { smtpUrl: smtp.url, from: 'acts <acts@test.local>', publicUrl: 'http://acts.test', linkKey: Buffer.from(KEY), linkTtlMs: 3_600_000, maxRecipients: 10 };
    t = await startTestServer({ backend, users, mail: config, engine: { autoTick: true, tickIntervalSecs: 1 } });
    const admin = t.as('admin');
    await admin.groups.create.mutate({ name: 'finance', description: '' });
    for (const u of ['carol', 'erin', 'dave']) await admin.groups.addMember.mutate({ name: 'finance', user: u });
    await admin.users.setEmail.mutate({ id: t.users.carol.id, email: 'carol@example.com' });
    await admin.users.setEmail.mutate({ id: t.users.erin.id, email: 'erin@example.com' });
    for (const [id, params] of [
      ['pay', '{ title: Pay, candidate_groups: [finance] }'],
      ['late', "{ title: Late, candidate_users: [carol], due: '2020-01-01' }"],
      ['choose', '{ title: Choose, candidate_users: [erin], outcomes: { ship: { label: Ship it }, hold: { ecode: held }, refuse: { ecode: refused, comment: required } } }'],
    ]) {
      await t.as('designer').models.deploy.mutate({ source: model(id, params) });
    }
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailsOf = (pid: string) => smtp.mails.filter((m) => m.body.includes(pid));
  async function open(mid: string) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid });
    await t.engine.idle();
    const task = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'approve' && x.state === 'interrupted')!;
    return { pid, tid: task.tid };
  }
  async function mailed(pid: string, count: number): Promise<ReceivedMail[]> {
    return eventually(() => mailsOf(pid).length >= count && mailsOf(pid), `${count} mails about ${pid}`, 750);
  }
  const link = (mail: ReceivedMail, label: string) => linksOf(mail).get(label)!.split('/mail/act/')[1];
  /** The id a link's token carries (its use is recorded under it). */
  const linkId = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { id: string }).id;
  const get = (token: string) => fetch(`${t.url}/mail/act/${token}`, { headers: { accept: 'application/json' } });
  const post = (token: string) => fetch(`${t.url}/mail/act/${token}`, { method: 'POST', headers: { accept: 'application/json' } });
  const reply = async (res: Response) => ({ status: res.status, ...((await res.json()) as { ok: boolean; state?: string; code?: string; result?: string }) });
  const stateOf = async (pid: string) => (await t.as('admin').processes.state.query({ pid })).state;

  it('admins set and remove a user\'s address (audited); a malformed one and a non-admin are refused', async () => {
    const admin = t.as('admin');
    const dave = t.users.dave.id;
    expect(await admin.users.setEmail.mutate({ id: dave, email: ' dave@example.com ' })).toMatchObject({ name: 'dave', email: 'dave@example.com' });
    expect(await t.audit.last('user.email')).toMatchObject({ actor_name: 'admin', target: dave, result: 'ok', detail: { name: 'dave', from: null, to: ' dave@example.com ' } });
    expect((await apiError(admin.users.setEmail.mutate({ id: dave, email: 'not an address' }))).code).toBe('input.invalid');
    expect((await apiError(t.as('operator').users.setEmail.mutate({ id: dave, email: 'x@example.com' }))).code).toBe('auth.forbidden');
    expect(await admin.users.setEmail.mutate({ id: dave, email: null })).toMatchObject({ email: null });
    expect((await admin.users.get.query({ id: dave })).email).toBeNull();
  });

  it('mails the members of the group who have an address, once each, with signed links that confirm, answer once and then refuse', async () => {
    const { pid, tid } = await open('pay');
    const mails = await mailed(pid, 2);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['carol@example.com', 'erin@example.com']);
    expect(mails[0].subject).toBe('[acts] New task: Pay - pay');
    const carol = mails.find((m) => m.to[0] === 'carol@example.com')!;
    const erin = mails.find((m) => m.to[0] === 'erin@example.com')!;
    expect([...linksOf(carol).keys()]).toEqual(['Approve', 'Reject']);
    expect(carol.body).toContain('http://acts.test/mail/act/');

    // GET (a mail scanner's prefetch) changes nothing; the HTML page carries the code too
    expect(await reply(await get(link(carol, 'Approve')))).toMatchObject({ status: 200, ok: true, state: 'ready' });
    const html = await (await fetch(`${t.url}/mail/act/${link(carol, 'Approve')}`)).text();
    expect(html).toContain('data-state="ready"');
    expect(await stateOf(pid)).toBe('running');

    expect(await reply(await post(link(carol, 'Approve')))).toMatchObject({ status: 200, ok: true, state: 'done' });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
    const entry = await t.audit.last('task.mail_link');
    expect(entry).toMatchObject({ actor_name: 'carol', target: `${pid}/${tid}`, result: 'ok', detail: { user: 'carol', answer: 'approve' } });

    expect(await reply(await post(link(carol, 'Approve')))).toMatchObject({ status: 409, ok: false, code: 'link.used', result: 'ok' });
    expect(await reply(await post(link(carol, 'Reject')))).toMatchObject({ status: 409, code: 'link.answered' });
    expect(await reply(await post(link(erin, 'Reject')))).toMatchObject({ status: 409, code: 'link.answered' });
    expect((await t.audit.last('task.mail_link'))?.result).toBe('link.answered');
    // one row per recipient, however often the inbox was looked at
    await t.server.notifications!.watch.sweep(); // another look finds the rows made
    const rows = (await t.store.notifications.query({ limit: 100 })).rows.filter((r) => r.pid === pid);
    expect(rows.map((r) => `${r.kind}/${r.user_name}/${r.state}`).sort()).toEqual(['arrived/carol/sent', 'arrived/erin/sent']);
  });

  it('refuses a link with a bad signature, an expired one, one of a user no longer offered the task, and one of a task another holds', async () => {
    const { pid, tid } = await open('pay');
    const [mail] = await mailed(pid, 2);
    const token = link(mail, 'Approve');
    const flipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    expect(await reply(await post(flipped))).toMatchObject({ status: 403, code: 'link.bad_signature' });
    expect(await reply(await get('not-a-token'))).toMatchObject({ status: 403, code: 'link.bad_signature' });
    const forged = signLink(Buffer.from('another key of forty characters........'), newLink({ pid, tid, user: 'dave', action: 'approve', exp: Date.now() + 60_000 }));
    expect(await reply(await post(forged))).toMatchObject({ status: 403, code: 'link.bad_signature' });
    const expired = signLink(Buffer.from(KEY), newLink({ pid, tid, user: 'carol', action: 'approve', exp: Date.now() - 1 }));
    expect(await reply(await post(expired))).toMatchObject({ status: 410, code: 'link.expired' });
    expect((await t.audit.last('task.mail_link'))?.result).toBe('link.expired');

    // dave (no address: no mail) leaves the group: a link made for him is refused
    await t.as('admin').groups.removeMember.mutate({ name: 'finance', user: 'dave' });
    const daves = signLink(Buffer.from(KEY), newLink({ pid, tid, user: 'dave', action: 'approve', exp: Date.now() + 60_000 }));
    expect(await reply(await post(daves))).toMatchObject({ status: 403, code: 'link.not_allowed', result: 'auth.forbidden' });

    // erin holds it: carol's link is refused (the page says so before any click), and stays unused
    await t.as('erin').inbox.claim.mutate({ pid, tid });
    const carols = smtp.mails.find((m) => m.body.includes(pid) && m.to[0] === 'carol@example.com')!;
    expect(await reply(await get(link(carols, 'Approve')))).toMatchObject({ status: 403, code: 'link.not_allowed', result: 'inbox.held' });
    expect(await reply(await post(link(carols, 'Approve')))).toMatchObject({ status: 403, code: 'link.not_allowed', result: 'inbox.held' });
    expect(await t.audit.last('task.mail_link')).toMatchObject({ actor_name: 'carol', result: 'link.not_allowed', detail: { reason: 'inbox.held' } });
    expect(await t.store.mailLinkUses.find(linkId(link(carols, 'Approve')))).toBeUndefined();
    expect(await stateOf(pid)).toBe('running');
    // the holder's own link works (reject: the act fails with ecode rejected)
    const erins = smtp.mails.find((m) => m.body.includes(pid) && m.to[0] === 'erin@example.com')!;
    expect(await reply(await post(link(erins, 'Reject')))).toMatchObject({ status: 200, state: 'done' });
    await t.engine.idle();
    expect(await stateOf(pid)).not.toBe('running');
  });

  it('two uses of one link at once: one answers, the other is refused as used', async () => {
    const { pid } = await open('pay');
    const mail = (await mailed(pid, 2)).find((m) => m.to[0] === 'erin@example.com')!;
    const token = link(mail, 'Approve');
    const replies = await Promise.all([post(token), post(token)].map(async (r) => reply(await r)));
    expect(replies.map((r) => r.state ?? r.code).sort()).toEqual(['done', 'link.used']);
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
    expect((await t.store.mailLinkUses.find(linkId(token)))?.result).toBe('ok');
  });

  it('a task past due mails `due` once; declared outcomes are the links, except those that need a comment', async () => {
    const late = await open('late');
    const mails = await mailed(late.pid, 2);
    expect(mails.map((m) => m.subject).sort()).toEqual(['[acts] Due: Late - late', '[acts] New task: Late - late']);
    await t.server.notifications!.watch.sweep();
    const rows = (await t.store.notifications.query({ limit: 100 })).rows.filter((r) => r.pid === late.pid);
    expect(rows.map((r) => r.id).sort()).toEqual([`arrived/${late.pid}/${late.tid}/carol`, `due/${late.pid}/${late.tid}/carol`]);
    const choose = await open('choose');
    const [mail] = await mailed(choose.pid, 1);
    expect([...linksOf(mail).keys()]).toEqual(['Ship it', 'hold']);
    expect(await reply(await post(link(mail, 'Ship it')))).toMatchObject({ status: 200, state: 'done', answer: 'ship' });
    await t.engine.idle();
    const proc = await t.as('admin').processes.get.query({ pid: choose.pid });
    expect(proc.tasks.find((x) => x.key === 'approve')?.outputs).toMatchObject({ outcome: 'ship' });
  });
  it("an escalation mails the task's new candidates once, saying why", async () => {
    await t.as('designer').models.deploy.mutate({
      source: `id: escalating
name: escalating
steps:
  - id: decide
    acts:
      - uses: acts.core.irq
        key: approve
        params: { title: Overdue bill, candidate_users: [dave] }
        timeout:
          - on: 1s
            steps: [ { id: to_erin, acts: [ { uses: acts.core.escalate, params: { candidate_users: [erin], reason: Not paid in time } } ] } ]
`,
    });
    const { pid } = await open('escalating');
    const [mail] = await mailed(pid, 1);
    expect(mail.to).toEqual(['erin@example.com']);
    expect(mail.subject).toBe('[acts] Escalated to you: Overdue bill - escalating');
    expect(mail.body).toContain('Escalated (offered to erin): Not paid in time. It waits for your answer:');
    expect([...linksOf(mail).keys()]).toEqual(['Approve', 'Reject']);
    await t.server.notifications!.watch.sweep();
    const rows = (await t.store.notifications.query({ limit: 100 })).rows.filter((r) => r.pid === pid);
    expect(rows.map((r) => `${r.kind}/${r.user_name}`)).toEqual(['escalated/erin']);
  });
});

describe('notification e-mails across instances and failures (postgresql)', () => {
  let db: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let smtp: SmtpPeer;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    db = await createTestDatabase('postgresql');
    const config: MailConfig = { smtpUrl: smtp.url, from: 'acts <acts@test.local>', publicUrl: 'http://acts.test', linkKey: Buffer.from(KEY), linkTtlMs: 3_600_000, maxRecipients: 10 };
    a = await startTestServer({ backend: 'postgresql', database: db, users, mail: config });
    b = await startTestServer({ backend: 'postgresql', database: db, users, mail: config });
    await a.as('admin').users.setEmail.mutate({ id: a.users.carol.id, email: 'carol@example.com' });
    await a.as('designer').models.deploy.mutate({ source: model('two', '{ title: Two, candidate_users: [carol] }') });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await smtp?.close();
  });

  it('two instances on one database send the mail once; a refused delivery is retried, not lost', async () => {
    smtp.refuseNext(1);
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'two' });
    await a.engine.idle();
    // both instances look at the inbox; one row is made, the first delivery is refused (451) and retried
    const row = await eventually(async () => (await a.store.notifications.find(`arrived/${pid}/${(await a.as('admin').processes.get.query({ pid })).tasks.find((x) => x.key === 'approve')!.tid}/carol`)) ?? false, 'the notification row', 500);
    // each instance looks again (b's first look at it, maybe): still the one row
    await Promise.all([a.server.notifications!.watch.sweep(), b.server.notifications!.watch.sweep()]);
    const failed = await eventually(async () => ((await a.store.notifications.find(row.id))?.attempts ?? 0) >= 1 && (await a.store.notifications.find(row.id)), 'a failed attempt', 500);
    expect(failed).toMatchObject({ state: 'pending', error: expect.stringContaining('try again later') });
    expect(failed.next_time).toBeGreaterThan(failed.update_time);
    // retry now instead of after the backoff: move next_time (as time passing would)
    await a.store.notifications.update({ ...failed, next_time: Date.now() - 1 });
    await eventually(() => smtp.mails.some((m) => m.body.includes(pid)), 'the retried mail', 750);
    const sent = await eventually(async () => (await b.store.notifications.find(row.id))?.state === 'sent', 'the row sent', 500);
    expect(sent).toBe(true);
    expect(smtp.mails.filter((m) => m.body.includes(pid))).toHaveLength(1);
    expect((await a.store.notifications.query({ limit: 100 })).rows.filter((r) => r.pid === pid)).toHaveLength(1);
  });
});
