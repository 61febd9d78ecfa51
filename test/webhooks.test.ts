/**
 * Signed webhook triggers (issue 13, item 5): POST /hooks/<model>/<trigger> of an acts.event.hook
 * trigger starts its model when the body's HMAC-SHA256 with the stored secret matches — GitHub's
 * X-Hub-Signature-256, Stripe's Stripe-Signature (with its replay window), or the generic
 * t=…,v1=… header — once per delivery (a repeat answers the first pid and starts nothing); bad,
 * missing and stale signatures, an oversized body, an unknown or disabled trigger, a trigger
 * without a secret and an unstored secret are refused with a code and start nothing; `?wait=`
 * answers the outputs; every delivery is in the audit log. Real requests to a real server, on
 * SQLite and PostgreSQL.
 */
import crypto from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signGithub, signTimed } from '../server/http/webhooks/signatures.ts';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const SECRET = 'whsec-test-0123456789';
const MODEL = `id: hooked
inputs: { body: null, event: null, delivery: null }
outputs: { said: null }
on:
  - { id: github, uses: acts.event.hook, params: { secret: HOOK_SECRET, signature: github } }
  - { id: stripe, uses: acts.event.hook, params: { secret: HOOK_SECRET, signature: stripe, tolerance_secs: 60 } }
  - { id: generic, uses: acts.event.hook, params: { secret: HOOK_SECRET, max_bytes: 2048 } }
  - { id: unsigned, uses: acts.event.hook }
  - { id: lost, uses: acts.event.hook, params: { secret: NOT_STORED } }
steps:
  - id: s1
    acts: [ { uses: acts.transform.set, params: { said: '{{ body.text }}' } } ]
`;

interface Reply {
  status: number;
  body: { pid?: string; repeated?: boolean; state?: string; outputs?: Record<string, unknown>; error?: { code: string; message: string } };
}

async function post(t: TestServer, path: string, body: string, headers: Record<string, string>): Promise<Reply> {
  const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

const nowSecs = () => Math.floor(Date.now() / 1000);

/** The start inputs of a process (its root task's). */
const inputsOf = async (t: TestServer, pid: string) => (await t.engine.procs.get(pid)).tasks.find((task) => task.tid === '$')!.inputs;

describe.each(SQL_BACKENDS)('signed webhook triggers on %s', (backend) => {
  let t: TestServer;
  const processes = async () => (await t.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'mid', op: 'eq', value: 'hooked' }] } })).count;
  beforeAll(async () => {
    t = await startTestServer({ backend, secretsKey: crypto.randomBytes(32).toString('hex') });
    await t.secrets.set('HOOK_SECRET', SECRET, 'test');
    await t.as('admin').models.deploy.mutate({ source: MODEL });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GitHub: a good signature starts the model once per delivery, with the body, event and delivery as inputs', async () => {
    const body = JSON.stringify({ text: 'pushed', ref: 'main' });
    const headers = { 'x-hub-signature-256': signGithub(SECRET, body), 'x-github-event': 'push', 'x-github-delivery': 'd-1' };
    const first = await post(t, '/hooks/hooked/github', body, headers);
    expect(first.status).toBe(202);
    expect(first.body.repeated).toBe(false);
    const pid = first.body.pid!;
    expect((await t.engine.procs.wait(pid)).outputs).toMatchObject({ said: 'pushed' });
    expect(await inputsOf(t, pid)).toMatchObject({ body: { text: 'pushed', ref: 'main' }, event: 'push', delivery: 'd-1' });
    // GitHub sends the delivery again: the same process answers, nothing new starts
    const before = await processes();
    const again = await post(t, '/hooks/hooked/github', body, headers);
    expect(again).toEqual({ status: 202, body: { pid, repeated: true } });
    expect(await processes()).toBe(before);
    const entry = (await t.audit.query({ action: 'hook.delivery', target: 'hooked:github', limit: 5 })).rows;
    expect(entry.map((e) => [e.result, (e.detail as { pid?: string }).pid])).toEqual([
      ['ok', pid],
      ['ok', pid],
    ]);
  });

  it('bad, missing and foreign signatures are refused with a code and start nothing', async () => {
    const body = JSON.stringify({ text: 'forged' });
    const before = await processes();
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['/hooks/hooked/github', { 'x-hub-signature-256': signGithub('another-secret', body) }, 401, 'hook.bad_signature'],
      ['/hooks/hooked/github', {}, 401, 'hook.no_signature'],
      ['/hooks/hooked/github', { 'x-hub-signature-256': 'sha256=zz' }, 401, 'hook.bad_signature'],
      ['/hooks/hooked/generic', { 'x-acts-signature': 'v1=abc' }, 401, 'hook.bad_signature'],
      ['/hooks/hooked/unsigned', {}, 403, 'hook.unsigned'],
      ['/hooks/hooked/lost', {}, 404, 'secret.unknown'],
      ['/hooks/hooked/nope', {}, 404, 'trigger.not_found'],
      ['/hooks/nobody/github', {}, 404, 'trigger.not_found'],
    ];
    for (const [path, headers, status, code] of cases) {
      const reply = await post(t, path, body, headers);
      expect([path, reply.status, reply.body.error?.code]).toEqual([path, status, code]);
      expect(reply.body.error?.message).toMatch(/\w+ \w+/);
    }
    expect(await processes()).toBe(before);
    const refused = (await t.audit.query({ action: 'hook.delivery', target: 'hooked:github', limit: 10 })).rows.filter((e) => e.result !== 'ok');
    expect(refused.map((e) => e.result).sort()).toEqual(['hook.bad_signature', 'hook.bad_signature', 'hook.no_signature']);
    // a GET is not a delivery
    expect((await fetch(`${t.url}/hooks/hooked/github`)).status).toBe(405);
  });

  it('Stripe: signed over the time and the body; a stale time is a replay and refused; the event id names the delivery', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', text: 'paid' });
    const stale = await post(t, '/hooks/hooked/stripe', body, { 'stripe-signature': signTimed(SECRET, body, nowSecs() - 3600) });
    expect([stale.status, stale.body.error?.code]).toEqual([401, 'hook.stale']);
    const fresh = await post(t, '/hooks/hooked/stripe', body, { 'stripe-signature': signTimed(SECRET, body, nowSecs()) });
    expect(fresh.status).toBe(202);
    expect(await inputsOf(t, fresh.body.pid!)).toMatchObject({ event: 'invoice.paid', delivery: 'evt_1' });
    // signed again later (Stripe's retry): the same event, the same process
    const retry = await post(t, '/hooks/hooked/stripe', body, { 'stripe-signature': signTimed(SECRET, body, nowSecs() + 1) });
    expect(retry.body).toEqual({ pid: fresh.body.pid, repeated: true });
  });

  it('generic: ?wait= answers the outputs; a body above max_bytes is refused before it is read whole', async () => {
    const body = JSON.stringify({ text: 'hello' });
    const done = await post(t, '/hooks/hooked/generic?wait=20s', body, { 'x-acts-signature': signTimed(SECRET, body, nowSecs()), 'idempotency-key': 'k-1' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'completed', outputs: { said: 'hello' }, repeated: false });
    const big = JSON.stringify({ text: 'x'.repeat(4096) });
    const refused = await post(t, '/hooks/hooked/generic', big, { 'x-acts-signature': signTimed(SECRET, big, nowSecs()) });
    expect([refused.status, refused.body.error?.code]).toEqual([413, 'hook.too_large']);
  });

  it('examples/github-approval.yml: a signed pull request delivery opens its approval', async () => {
    await t.secrets.set('GITHUB_HOOK', SECRET, 'test');
    await t.as('admin').models.deploy.mutate({ source: await readFile(new URL('../examples/github-approval.yml', import.meta.url), 'utf8') });
    const body = JSON.stringify({ action: 'opened', number: 12, pull_request: { title: 'Add webhooks' } });
    const reply = await post(t, '/hooks/github-approval/github', body, { 'x-hub-signature-256': signGithub(SECRET, body), 'x-github-event': 'pull_request', 'x-github-delivery': `pr-12-${backend}` });
    expect(reply.status).toBe(202);
    await t.engine.idle();
    const approve = (await t.engine.procs.get(reply.body.pid!)).tasks.find((task) => task.key === 'approve')!;
    expect(approve.state).toBe('interrupted');
    expect((approve.params as { title?: string }).title).toBe('Review pull request #12: Add webhooks');
  });

  it('a disabled trigger takes no delivery', async () => {
    await t.as('admin').triggers.setEnabled.mutate({ id: 'hooked:github', enabled: false });
    const body = JSON.stringify({ text: 'late' });
    const reply = await post(t, '/hooks/hooked/github', body, { 'x-hub-signature-256': signGithub(SECRET, body), 'x-github-delivery': 'd-off' });
    expect([reply.status, reply.body.error?.code]).toEqual([409, 'trigger.disabled']);
    await t.as('admin').triggers.setEnabled.mutate({ id: 'hooked:github', enabled: true });
  });
});
