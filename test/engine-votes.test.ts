/**
 * M-of-N and four-eyes approvals in the engine (issue 15 item 5, engine/votes.ts): an interrupt
 * act with `quorum` is decided by votes — each person once, the requester left out when the rule
 * says so, `need` approvals complete it with who approved and their comments, a rejection rejects
 * it (caught, or the run ends on `rejected`). Every refusal changes nothing. Votes are engine
 * state: a second engine on the same store (memory, SQLite, PostgreSQL) counts them on, and two
 * votes sent at the same instant both count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Vars } from '../server/engine/model/types.ts';
import type { EngineOptions } from '../server/runtime/engine.ts';
import type { Store } from '../server/store/contract/types.ts';
import { ELECTORATE_KEY, VOTES_KEY } from '../vocab/quorum.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const approval = (id: string, quorum: string, rest = '') => `id: ${id}
inputs: { requester: ann }
steps:
  - id: ask
    acts:
      - { uses: acts.core.irq, key: sign, params: { title: Sign, candidate_groups: [finance], quorum: ${quorum} }, outputs: { ok: null } }
${rest}  - id: after
    acts:
      - { uses: acts.core.irq, key: next_one }
`;

const TWO_OF_THREE = approval('two', '{ need: 2, exclude_requester: true }');
const NAMED = approval('named', "{ need: 1, exclude_requester: true, requester: '{{ requester }}' }");
const ALL = approval('all', '{ need: all }');
const CAUGHT = `id: caught
steps:
  - id: ask
    acts:
      - id: sign
        uses: acts.core.irq
        key: sign
        params: { candidate_groups: [finance], quorum: { need: 2, reject_after: 2, reject_ecode: no_way } }
        catches:
          - { on: no_way, steps: [ { id: handled, acts: [ { uses: acts.core.msg, key: told } ] } ] }
`;
const PLAIN = `id: plain
steps:
  - { id: s, acts: [ { uses: acts.core.irq, key: sign } ] }
`;

const voter = (name: string) => ({ name, id: `id-${name}` });

describe.each(BACKENDS)('votes on %s', (backend) => {
  const store = useTestStore(backend);
  const harness = async (options: EngineOptions = {}, on: Store = store()) => {
    const h = await createHarness({ store: borrowed(on), ...options });
    open.push(h);
    return h;
  };
  async function started(h: Harness, mid: string, owner = 'id-ann') {
    const proc = await h.engine.procs.start(mid, {}, { owner: { id: owner } });
    await h.settle();
    return { pid: proc.pid, tid: h.created('sign', proc.pid).tid };
  }
  const vote = (h: Harness, at: { pid: string; tid: string }, name: string, decision: string, extra: Vars = {}) =>
    h.engine.do({ pid: at.pid, tid: at.tid, action: 'vote', options: { decision, $voter: voter(name), ...extra } }).then(() => h.settle());
  const task = async (h: Harness, at: { pid: string; tid: string }) => (await h.proc(at.pid)).tasks.find((t) => t.tid === at.tid)!;

  it('2 of 3: the first approval is recorded, the second completes the act with who approved and why', async () => {
    const h = await harness();
    await h.deploy(TWO_OF_THREE);
    const at = await started(h, 'two');
    await vote(h, at, 'carol', 'approve', { comment: ' fine by me ' });
    const waiting = await task(h, at);
    expect(waiting.state).toBe('interrupted');
    expect(waiting.data[VOTES_KEY]).toMatchObject([{ user: 'carol', decision: 'approve', comment: 'fine by me' }]);
    await vote(h, at, 'erin', 'approve');
    const done = await task(h, at);
    expect(done.state).toBe('completed');
    expect(done.outputs).toMatchObject({ outcome: 'approved', approved_by: ['carol', 'erin'], votes: [{ user: 'carol', comment: 'fine by me' }, { user: 'erin', decision: 'approve' }] });
    expect(h.created('next_one', at.pid)).toBeTruthy();
    // the act is closed: a third vote changes nothing
    await expect(vote(h, at, 'dave', 'approve')).rejects.toMatchObject({ code: 'action.refused' });
  });

  it('refusals change nothing: twice, the requester, a plain answer, a vote on an act without quorum, a bad decision', async () => {
    const h = await harness();
    await h.deploy(TWO_OF_THREE);
    await h.deploy(NAMED);
    await h.deploy(PLAIN);
    const at = await started(h, 'two');
    await vote(h, at, 'carol', 'approve');
    await expect(vote(h, at, 'carol', 'approve')).rejects.toMatchObject({ code: 'vote.already_voted' });
    await expect(vote(h, at, 'carol', 'reject')).rejects.toMatchObject({ code: 'vote.already_voted' });
    await expect(vote(h, at, 'ann', 'approve')).rejects.toMatchObject({ code: 'vote.requester_excluded' });
    await expect(h.engine.do({ pid: at.pid, tid: at.tid, action: 'complete', options: { ok: true } })).rejects.toMatchObject({ code: 'vote.votes_decide' });
    await expect(h.engine.do({ pid: at.pid, tid: at.tid, action: 'submit', options: { ok: true } })).rejects.toMatchObject({ code: 'vote.votes_decide' });
    await expect(vote(h, at, 'erin', 'maybe')).rejects.toMatchObject({ code: 'action.invalid_options' });
    await expect(h.engine.do({ pid: at.pid, tid: at.tid, action: 'vote', options: { decision: 'approve' } })).rejects.toMatchObject({ code: 'action.invalid_options' });
    const after = await task(h, at);
    expect(after.state).toBe('interrupted');
    expect(after.data[VOTES_KEY]).toHaveLength(1);
    // the requester the model names (not who started the run)
    const named = await started(h, 'named', 'id-carol');
    await expect(vote(h, named, 'ann', 'approve')).rejects.toMatchObject({ code: 'vote.requester_excluded' });
    await vote(h, named, 'carol', 'approve');
    expect((await task(h, named)).state).toBe('completed');
    const plain = await started(h, 'plain');
    await expect(vote(h, plain, 'carol', 'approve')).rejects.toMatchObject({ code: 'vote.not_quorum' });
  });

  it('any one rejection rejects: uncaught, the run ends on the outcome rejected; caught after reject_after rejections', async () => {
    const h = await harness();
    await h.deploy(TWO_OF_THREE);
    await h.deploy(CAUGHT);
    const at = await started(h, 'two');
    await vote(h, at, 'carol', 'approve');
    await vote(h, at, 'erin', 'reject', { comment: 'too much' });
    const proc = await h.proc(at.pid);
    expect(proc).toMatchObject({ state: 'completed', outcome: 'rejected' });
    expect(proc.tasks.find((t) => t.tid === at.tid)).toMatchObject({ state: 'error', err: { ecode: 'rejected', message: 'rejected by erin: too much' } });
    const caught = await started(h, 'caught');
    await vote(h, caught, 'carol', 'reject');
    expect((await task(h, caught)).state).toBe('interrupted');
    await vote(h, caught, 'erin', 'reject');
    expect(h.find({ key: 'told', pid: caught.pid, state: 'completed' })).toHaveLength(1);
    expect((await h.proc(caught.pid)).state).toBe('completed');
  });

  it('need: all takes the number of candidates from the first vote and keeps it', async () => {
    const h = await harness();
    await h.deploy(ALL);
    const at = await started(h, 'all');
    await expect(vote(h, at, 'carol', 'approve')).rejects.toMatchObject({ code: 'action.invalid_options' });
    await vote(h, at, 'carol', 'approve', { $electorate: 2 });
    expect((await task(h, at)).data[ELECTORATE_KEY]).toBe(2);
    // a later count (the group grew) changes nothing
    await vote(h, at, 'erin', 'approve', { $electorate: 5 });
    expect((await task(h, at)).state).toBe('completed');
  });

  it('votes survive a restart; two votes at the same instant both count', async () => {
    const first = await harness();
    await first.deploy(TWO_OF_THREE);
    const at = await started(first, 'two');
    await vote(first, at, 'carol', 'approve');
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness();
    await second.settle();
    await expect(vote(second, at, 'carol', 'approve')).rejects.toMatchObject({ code: 'vote.already_voted' });
    await vote(second, at, 'erin', 'approve');
    expect((await task(second, at)).outputs).toMatchObject({ approved_by: ['carol', 'erin'] });

    const both = await started(second, 'two');
    await Promise.all([vote(second, both, 'carol', 'approve'), vote(second, both, 'erin', 'approve')]);
    expect(((await task(second, both)).outputs as { approved_by: string[] }).approved_by.sort()).toEqual(['carol', 'erin']);
    // three at once: two complete it, the third is told the act is closed
    const three = await started(second, 'two');
    const results = await Promise.allSettled(['carol', 'erin', 'dave'].map((n) => vote(second, three, n, 'approve')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['action.refused']);
  });
});
