/**
 * `acts groups …` and `acts claim | release | delegate | reassign` run for real (`node bin/acts.mjs`
 * as a child process) against a test server: an admin makes a group and adds members, a member
 * claims a task offered to the group and delegates it, the admin reassigns it; `acts tasks --inbox
 * --view` lists each view; refusals exit with their codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import { actsRemote } from './helpers/acts-cli.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'] };

let t: TestServer;

/** `acts …args` as `who` against the test server. */
const acts = (who: string, args: string[]) => actsRemote(t.url, t.tokenOf(who), args);

beforeAll(async () => {
  t = await startTestServer({ users });
  await t.as('designer').models.deploy.mutate({
    source: `id: cli-team\nname: Team\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.irq, key: pay, params: { title: Pay, candidate_groups: [payers] } }\n`,
  });
});
afterAll(() => t?.close());

describe('acts groups and the hand-over commands', () => {
  it('makes a group, lists it; claims, delegates, reassigns; views; coded refusals', { timeout: 60_000 }, async () => {
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
});
