/**
 * Escalation of inbox tasks (issue: the operator inbox for real teams, item 3): an irq act's
 * timeout rule runs `acts.core.escalate`, which offers the still open task to others (a group, a
 * user it is given to) and raises its priority. The old candidates lose it (their answer is
 * refused), the new ones see it with the escalation and answer it; whoever had claimed it no
 * longer holds it; an escalation that names no one keeps the candidates and raises the priority;
 * one outside an interrupt fails its act with a sentence. The clock is the engine's, injected: the
 * rules fire on a tick after the clock was moved on. Over real HTTP, on SQLite and PostgreSQL,
 * and the escalated task survives a restart of the server on the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/engine/clock.ts';
import type { Role } from '../vocab/roles.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'], mia: ['operator'] };
const HOUR = 3_600_000;

const ESCALATING = `id: escalating
name: escalating
steps:
  - id: decide
    acts:
      - uses: acts.core.irq
        key: approve
        params: { title: Pay the bill, candidate_groups: [clerks], due: 1h, priority: 40 }
        outputs: { ok: null }
        timeout:
          - on: 2h
            steps:
              - id: escalate
                acts:
                  - uses: acts.core.escalate
                    params: { candidate_groups: [managers], priority: 90, reason: Not answered within 2 hours }
`;

const NUDGED = `id: nudged
name: nudged
steps:
  - id: decide
    acts:
      - uses: acts.core.irq
        key: approve
        params: { title: Sign, candidate_users: [carol, erin] }
        outputs: { ok: null }
        timeout:
          - on: 1h
            steps: [ { id: nudge, acts: [ { uses: acts.core.escalate, params: { priority: 80 } } ] } ]
`;

const MISPLACED = `id: misplaced
name: misplaced
steps:
  - { id: s1, acts: [ { uses: acts.core.escalate, key: esc, params: { candidate_groups: [managers] } } ] }
`;

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return (err as { shape?: { data?: { code?: string } } }).shape?.data?.code ?? String(err);
  }
  return 'no refusal';
}

describe.each(['sqlite', 'postgresql'] as const)('inbox escalation (%s)', (backend) => {
  const clock = new ManualClock(Date.now());
  let database: TestDatabase;
  let t: TestServer;

  const start = () => startTestServer({ backend, database, users, engine: { clock } });

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    t = await start();
    const admin = t.as('admin');
    for (const [group, member] of [
      ['clerks', 'carol'],
      ['managers', 'mia'],
    ]) {
      await admin.groups.create.mutate({ name: group });
      await admin.groups.addMember.mutate({ name: group, user: member });
    }
    for (const source of [ESCALATING, NUDGED, MISPLACED]) await t.as('designer').models.deploy.mutate({ source });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  async function open(mid: string) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid });
    await t.engine.idle();
    const task = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'approve' && x.state === 'interrupted')!;
    return { pid, tid: task.tid };
  }
  const rowOf = async (who: string, view: 'mine' | 'groups' | 'all', pid: string) => (await t.as(who).inbox.list.query({ view, limit: 200, offset: 0 })).rows.find((r) => r.pid === pid);
  /** Moves the engine's clock on and lets its timeout rules fire. */
  async function later(ms: number) {
    clock.advance(ms);
    await t.engine.tick();
    await t.engine.idle();
  }

  it('a timeout escalates an unanswered task to another group at a higher priority; the clerk who held it loses it', async () => {
    const { pid, tid } = await open('escalating');
    await t.as('carol').inbox.claim.mutate({ pid, tid });
    expect(await rowOf('carol', 'mine', pid)).toMatchObject({ priority: 40, hold: { holder: 'carol' } });
    expect(await rowOf('mia', 'all', pid)).toBeUndefined();
    // an hour on it is overdue but not yet escalated
    await later(HOUR + 1);
    expect((await t.as('carol').inbox.list.query({ view: 'all', overdue: true, limit: 200, offset: 0 })).rows.map((r) => r.pid)).toContain(pid);
    expect((await rowOf('carol', 'mine', pid))?.escalation).toBeUndefined();

    await later(HOUR);
    const row = await rowOf('mia', 'groups', pid);
    expect(row).toMatchObject({
      priority: 90,
      hold: { holder: null },
      assignment: { groups: ['managers'] },
      escalation: { reason: 'Not answered within 2 hours', count: 1, priority: 90, by: 'escalate', to: { candidate_groups: ['managers'] } },
      params: { title: 'Pay the bill', candidate_groups: ['managers'] },
    });
    expect(await rowOf('carol', 'all', pid)).toBeUndefined();
    expect(await refusal(t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('auth.forbidden');
    // the task still waits; the escalation's act completed with what it did
    const tasks = (await t.as('viewer').processes.get.query({ pid })).tasks;
    expect(tasks.find((x) => x.tid === tid)?.state).toBe('interrupted');
    expect(tasks.find((x) => x.nid !== 'escalate' && x.uses === 'acts.core.escalate')).toMatchObject({ state: 'completed', outputs: { escalation: { count: 1 } } });

    // the task's history on the run page, newest first (the escalation went by the engine's clock, moved on by hours)
    const history = (await t.as('viewer').tasks.history.query({ pid, tid })).rows.map((e) => `${e.actor_name} ${e.action} ${e.result} ${e.text ?? ''}`.trim());
    expect(history).toEqual(['escalate task.escalate ok Escalated (offered to group managers, priority 90): Not answered within 2 hours', 'carol task.complete auth.forbidden', 'carol task.claim ok']);

    await t.as('mia').tasks.complete.mutate({ pid, tid, options: { ok: true } });
    await t.engine.idle();
    expect((await t.as('admin').processes.state.query({ pid })).state).toBe('completed');
  });

  it('an escalation that names no one keeps the candidates, raises the priority and frees the claim', async () => {
    const { pid, tid } = await open('nudged');
    await t.as('erin').inbox.claim.mutate({ pid, tid });
    await later(HOUR + 1);
    expect(await rowOf('carol', 'groups', pid)).toMatchObject({ priority: 80, hold: { holder: null }, assignment: { assignees: ['carol', 'erin'] }, escalation: { to: null, priority: 80 } });
    expect(await rowOf('erin', 'groups', pid)).toMatchObject({ priority: 80 });
    await t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } });
    await t.engine.idle();
    expect((await t.as('admin').processes.state.query({ pid })).state).toBe('completed');
  });

  it('an escalate act outside an interrupt fails with a sentence', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'misplaced' });
    await t.engine.idle();
    const esc = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'esc');
    expect(esc?.state).toBe('error');
    expect(esc?.err?.message).toMatch(/no open interrupt above it to escalate: put it in the timeout steps of an irq act/);
  });

  it('an escalated task keeps its new candidates after the server restarts', async () => {
    const { pid, tid } = await open('escalating');
    await later(2 * HOUR + 1);
    await t.close();
    t = await start();
    expect(await rowOf('mia', 'groups', pid)).toMatchObject({ priority: 90, escalation: { count: 1 } });
    expect(await refusal(t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('auth.forbidden');
    await t.as('mia').tasks.complete.mutate({ pid, tid, options: { ok: true } });
    await t.engine.idle();
    expect((await t.as('admin').processes.state.query({ pid })).state).toBe('completed');
  });
});
