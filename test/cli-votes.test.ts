/**
 * `acts vote` runs for real (`node bin/acts.mjs` as a child process) against a test server: two
 * members of a group approve a 2-of-3 task, the second vote completes it; a second vote, a user
 * outside the group and a bad decision are refused with their codes and exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import { actsAs } from './helpers/acts-cli.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'], ivy: ['operator'] };

let t: TestServer;

const acts = (who: string, args: string[]) => actsAs(t, who, args);

beforeAll(async () => {
  t = await startTestServer({ users });
  await t.as('admin').groups.create.mutate({ name: 'board' });
  for (const u of ['carol', 'erin']) await t.as('admin').groups.addMember.mutate({ name: 'board', user: u });
  await t.as('designer').models.deploy.mutate({
    source: `id: cli-votes\nname: Votes\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.irq, key: sign, params: { title: Sign, candidate_groups: [board], quorum: { need: 2 } } }\n`,
  });
});
afterAll(() => t?.close());

describe('acts vote', () => {
  it('counts each member once; the second approval completes the task; refusals exit with their codes', { timeout: 60_000 }, async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'cli-votes' });
    await t.engine.idle();
    const tid = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'sign')!.tid;
    expect((await acts('carol', ['vote', pid, tid, 'approve', '--comment', 'fine'])).lines).toEqual([{ pid, tid, decision: 'approve', approvals: 1, rejections: 0, need: 2 }]);
    const twice = await acts('carol', ['vote', pid, tid, 'approve']);
    expect([twice.code, twice.error?.code]).toEqual([6, 'vote.already_voted']);
    const outsider = await acts('ivy', ['vote', pid, tid, 'approve']);
    expect([outsider.code, outsider.error?.code]).toEqual([5, 'auth.forbidden']);
    const bad = await acts('erin', ['vote', pid, tid, 'maybe']);
    expect(bad.code).toBe(2);
    expect((await acts('erin', ['vote', pid, tid, 'approve'])).lines).toEqual([{ pid, tid, decision: 'approve', approvals: 2, rejections: 0, need: 2 }]);
    await t.engine.idle();
    expect((await t.as('admin').processes.state.query({ pid })).state).toBe('completed');
  });
});
