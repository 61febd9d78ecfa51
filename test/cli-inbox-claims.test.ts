/**
 * `acts groups …` and `acts claim | release | delegate | reassign` run for real (`node bin/acts.mjs`
 * as a child process) against a test server: an admin makes a group and adds members, a member
 * claims a task offered to the group and delegates it, the admin reassigns it; `acts tasks --inbox
 * --view` lists each view; refusals exit with their codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import { actsAs } from './helpers/acts-cli.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'] };

let t: TestServer;

/** `acts …args` as `who` against the test server. */
const acts = (who: string, args: string[]) => actsAs(t, who, args);

beforeAll(async () => {
  t = await startTestServer({ users });
  await t.as('designer').models.deploy.mutate({
    source: `id: cli-team\nname: Team\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.irq, key: pay, params: { title: Pay, candidate_groups: [payers] } }\n`,
  });
});
afterAll(() => t?.close());

describe('acts groups and the hand-over commands', () => {
  it('makes a group, lists it; claims, delegates, reassigns; views; coded refusals', { timeout: 180_000 }, async () => {
    expect((await acts('admin', ['groups', 'create', 'payers', '--desc', 'pay the bills'])).lines).toMatchObject([{ name: 'payers', description: 'pay the bills', members: [] }]);
    expect((await acts('admin', ['groups', 'add', 'payers', 'carol'])).lines).toEqual([{ group: 'payers', user: 'carol', groups: ['payers'] }]);
    expect((await acts('admin', ['groups', 'list'])).lines).toMatchObject([{ name: 'payers', members: ['carol'] }]);
    const denied = await acts('carol', ['groups', 'create', 'mine']);
    expect([denied.code, denied.error?.code]).toEqual([5, 'auth.forbidden']);

    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'cli-team' });
    await t.engine.idle();
    const tid = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'pay' && x.kind === 'act')!.tid;
    expect((await acts('carol', ['tasks', '--inbox', '--view', 'groups'])).lines.map((l) => l.pid)).toEqual([pid]);
    expect((await acts('erin', ['tasks', '--inbox'])).lines).toEqual([]);
    const stranger = await acts('erin', ['claim', pid, tid]);
    expect([stranger.code, stranger.error?.code]).toEqual([5, 'auth.forbidden']);
    expect((await acts('carol', ['claim', pid, tid])).lines).toEqual([{ pid, tid, holder: 'carol', delegator: null }]);
    expect((await acts('carol', ['tasks', '--inbox', '--view', 'mine'])).lines).toMatchObject([{ pid, hold: { holder: 'carol' } }]);
    expect((await acts('carol', ['delegate', pid, tid, 'erin'])).lines).toEqual([{ pid, tid, holder: 'erin', delegator: 'carol' }]);
    const held = await acts('carol', ['release', pid, tid]);
    expect([held.code, held.error?.code]).toEqual([6, 'inbox.held']);
    const usage = await acts('admin', ['reassign', pid, tid]);
    expect([usage.code, usage.error?.code]).toEqual([2, 'usage.invalid']);
    expect((await acts('admin', ['reassign', pid, tid, '--nobody'])).lines).toEqual([{ pid, tid, holder: null, delegator: null }]);
    const badView = await acts('carol', ['tasks', '--inbox', '--view', 'theirs']);
    expect([badView.code, badView.error?.code]).toEqual([2, 'usage.invalid']);
    expect((await acts('admin', ['groups', 'remove', 'payers'])).lines).toEqual([{ name: 'payers', removed: true }]);
  });

  it('orders the inbox by due date or priority and lists the overdue tasks', { timeout: 120_000 }, async () => {
    const due = (id: string, params: string) => `id: ${id}\nname: ${id}\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.irq, key: k, params: { title: ${id}, candidate_users: [erin], ${params} } }\n`;
    const pids: Record<string, string> = {};
    for (const [id, params] of [
      ['cli-late', "due: '2020-01-01', priority: 10"],
      ['cli-soon', 'due: 2h, priority: 90'],
    ]) {
      await t.as('designer').models.deploy.mutate({ source: due(id, params) });
      pids[id] = (await t.as('operator').processes.start.mutate({ mid: id })).pid;
    }
    await t.engine.idle();
    const byDue = await acts('erin', ['tasks', '--inbox', '--order', 'due']);
    expect(byDue.lines.map((l) => l.pid)).toEqual([pids['cli-late'], pids['cli-soon']]);
    expect(byDue.lines[0]).toMatchObject({ due_time: Date.parse('2020-01-01'), priority: 10 });
    expect((await acts('erin', ['tasks', '--inbox', '--order', 'priority'])).lines.map((l) => l.pid)).toEqual([pids['cli-soon'], pids['cli-late']]);
    expect((await acts('erin', ['tasks', '--inbox', '--overdue'])).lines.map((l) => l.pid)).toEqual([pids['cli-late']]);
    const badOrder = await acts('erin', ['tasks', '--inbox', '--order', 'sideways']);
    expect([badOrder.code, badOrder.error?.code]).toEqual([2, 'usage.invalid']);
  });
});
