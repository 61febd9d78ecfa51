/**
 * The `acts` command line, run for real: `node bin/acts.mjs …` as a child process from the repo
 * root. Checks the CLI contract (README "acts command line"): JSON message lines in causal order,
 * the final line, exit codes 0/1/2/3, responses files, one-line `acts:` errors, `validate`, `--help`.
 */
import { execFile, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { json, startPeer } from './helpers/http-peer.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIX = 'test/fixtures/cli';
const TIMEOUT = 30_000;

/** The keys of every message line, in this order (the contract). */
const MESSAGE_KEYS = ['type', 'state', 'key', 'name', 'nid', 'pid', 'tid', 'uses', 'tag', 'inputs', 'outputs'];

interface Msg {
  type: string;
  state: string;
  key: string;
  name: string;
  nid: string;
  pid: string;
  tid: string;
  uses: string;
  tag: string;
  inputs: Record<string, any>;
  outputs: Record<string, any>;
}

interface Final {
  event: 'complete' | 'error' | 'waiting';
  state: string;
  outputs: Record<string, unknown>;
  error: { ecode: string; message: string } | null;
  tasks?: Array<{ key: string; tid: string; nid: string; pid: string }>;
}

interface ActsResult {
  /** Exit code; -1 when the child was killed (e.g. by the timeout). */
  code: number;
  stdout: string;
  stderr: string;
  /** stdout lines parsed as JSON; `undefined` for a line that is not JSON. */
  lines: unknown[];
}

/** Runs `node bin/acts.mjs …args` from the repo root. Never rejects. */
function runActs(args: string[]): Promise<ActsResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/acts.mjs', ...args],
      { cwd: ROOT, timeout: TIMEOUT - 5_000, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const lines = stdout
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => {
            try {
              return JSON.parse(l) as unknown;
            } catch {
              return undefined;
            }
          });
        resolve({ code, stdout, stderr, lines });
      },
    );
  });
}

/** Identical runs are shared between tests (each child starts a QuickJS sandbox). */
const cache = new Map<string, Promise<ActsResult>>();
function runOnce(args: string[]): Promise<ActsResult> {
  const key = JSON.stringify(args);
  if (!cache.has(key)) cache.set(key, runActs(args));
  return cache.get(key)!;
}

const example = (name: string) => `examples/${name}.yml`;
const responses = (name: string) => ['--respond', `examples/${name}.responses.yml`];

/**
 * Checks the shape of a finished `acts run` (every line JSON, message lines with exactly the
 * contract keys, one final line, the exit code, no stack trace) and returns its parts.
 */
function expectRun(r: ActsResult, code: number, event: Final['event'], state: string): { messages: Msg[]; final: Final } {
  const context = `exit ${r.code}\nstderr: ${r.stderr}\nstdout:\n${r.stdout}`;
  expect(r.code, context).toBe(code);
  expect(r.lines.length, context).toBeGreaterThan(1);
  r.lines.forEach((l, i) => expect(l, `stdout line ${i + 1} is not a JSON object`).toBeTypeOf('object'));
  const messages = r.lines.slice(0, -1) as Msg[];
  const final = r.lines[r.lines.length - 1] as Final;
  for (const m of messages) expect(Object.keys(m), JSON.stringify(m)).toEqual(MESSAGE_KEYS);
  expect(final.event, context).toBe(event);
  expect(final.state, context).toBe(state);
  expect(Object.keys(final)).toEqual(expect.arrayContaining(['event', 'state', 'outputs', 'error']));
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expectCausal(messages);
  return { messages, final };
}

/**
 * Causal order per task (pid + tid): a task is created once, and nothing of it is printed before
 * its `created` message. (Message acts print only their terminal state.)
 */
function expectCausal(messages: Msg[]): void {
  const seen = new Map<string, string[]>();
  for (const m of messages) {
    const id = `${m.pid}/${m.tid}`;
    const states = seen.get(id) ?? [];
    states.push(m.state);
    seen.set(id, states);
  }
  for (const [id, states] of seen) {
    const created = states.filter((s) => s === 'created').length;
    expect(created, `${id}: ${states.join(' → ')}`).toBeLessThanOrEqual(1);
    if (created === 1) expect(states[0], `${id}: ${states.join(' → ')}`).toBe('created');
  }
}

const find = (messages: Msg[], key: string, state?: string) =>
  messages.filter((m) => m.key === key && (state === undefined || m.state === state));
/** Index of the first message matching, -1 when none. */
const indexOf = (messages: Msg[], pred: (m: Msg) => boolean) => messages.findIndex(pred);

/** An invalid-input failure: exit 2, exactly one `acts:` line on stderr, no stack, no messages. */
function expectInputError(r: ActsResult, pattern: RegExp): void {
  const context = `exit ${r.code}\nstderr: ${r.stderr}\nstdout: ${r.stdout}`;
  expect(r.code, context).toBe(2);
  const errLines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(errLines, context).toHaveLength(1);
  expect(errLines[0]).toMatch(/^acts: /);
  expect(errLines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toMatch(/\w+Error:/);
  expect(r.stdout.trim(), 'nothing on stdout').toBe('');
}

describe('acts run: every example runs to its documented end', () => {
  it('covers every example in examples/', () => {
    const models = readdirSync(`${ROOT}examples`)
      .filter((f) => f.endsWith('.yml') && !f.endsWith('.responses.yml'))
      .map((f) => f.replace(/\.yml$/, ''))
      .sort();
    // subflow-child is deployed with --model by the subflow test.
    expect(models).toEqual(
      [
        'approval-chain',
        'branches',
        'catches',
        'code',
        'github-approval',
        'hooks',
        'http-branch',
        'loop',
        'outcomes',
        'parallel-approvals',
        'push',
        'send-back',
        'subflow',
        'subflow-child',
        'timeout-escalation',
      ].sort(),
    );
  });

  it('approval-chain: carol approves last; the requester is notified', { timeout: TIMEOUT }, async () => {
    const { messages, final } = expectRun(await runOnce(['run', example('approval-chain'), ...responses('approval-chain')]), 0, 'complete', 'completed');
    expect(final.outputs).toEqual({ approved_by: 'carol' });
    expect(final.error).toBeNull();
    expect(find(messages, 'manager_approve', 'completed')[0].outputs).toEqual({ approved_by: 'bob' });
    // The director's title is rendered with what the manager answered.
    expect(find(messages, 'director_approve', 'created')[0].inputs.params.title).toBe('Second approval of 120 (manager bob)');
    const notify = find(messages, 'notify');
    expect(notify).toHaveLength(1);
    expect(notify[0].state).toBe('completed');
    expect(notify[0].inputs.params).toEqual({ to: 'alice', text: 'Your expense of 120 was approved' });
  });

  it('loop: 0 + 1 + … + 4 = 10, the body runs five times', { timeout: TIMEOUT }, async () => {
    const { messages, final } = expectRun(await runOnce(['run', example('loop')]), 0, 'complete', 'completed');
    expect(final.outputs).toEqual({ result: 10 });
    expect(find(messages, 'add', 'created')).toHaveLength(5);
    expect(find(messages, 'finish', 'completed')).toHaveLength(1);
  });

  it.each([
    ['default inputs (amount 50)', 'auto', []],
    ['amount 500', 'manager', ['--inputs', '{"amount": 500}']],
    ['amount 5000', 'board', ['--inputs', '{"amount": 5000}']],
  ])('branches: %s → route %s', { timeout: TIMEOUT }, async (_label, route, extra) => {
    const { messages, final } = expectRun(await runOnce(['run', example('branches'), ...extra]), 0, 'complete', 'completed');
    expect(final.outputs).toEqual({ route });
    // Only the matching branch ran.
    const ran = messages.filter((m) => m.type === 'step' && m.state === 'created').map((m) => m.key);
    expect(ran).toEqual(['route', route]);
  });

  it('parallel-approvals: one review per reviewer, then publish', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(
      await runOnce(['run', example('parallel-approvals'), ...responses('parallel-approvals')]),
      0,
      'complete',
      'completed',
    );
    const created = find(messages, 'review', 'created').filter((m) => m.type === 'act');
    expect(created).toHaveLength(3);
    expect(created.map((m) => m.inputs.options)).toEqual([
      { $index: 0, $value: 'ann' },
      { $index: 1, $value: 'ben' },
      { $index: 2, $value: 'cho' },
    ]);
    expect(created.map((m) => m.inputs.params.title)).toEqual(['Review #0', 'Review #1', 'Review #2']);
    expect(new Set(created.map((m) => m.tid)).size).toBe(3);
    const lastReview = Math.max(...find(messages, 'review', 'completed').filter((m) => m.type === 'act').map((m) => messages.indexOf(m)));
    expect(indexOf(messages, (m) => m.key === 'published')).toBeGreaterThan(lastReview);
  });

  it('catches: a declined card asks for another card, then ships', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(await runOnce(['run', example('catches'), ...responses('catches')]), 0, 'complete', 'completed');
    expect(find(messages, 'charge', 'error')[0].inputs).toMatchObject({ ecode: 'card_declined', message: 'insufficient funds' });
    const otherCard = indexOf(messages, (m) => m.key === 'other_card' && m.state === 'created');
    const shipped = indexOf(messages, (m) => m.key === 'shipped' && m.state === 'completed');
    expect(otherCard).toBeGreaterThan(-1);
    expect(shipped).toBeGreaterThan(otherCard);
    // The other catch rules did not run.
    expect(find(messages, 'fraud_team')).toEqual([]);
    expect(find(messages, 'support')).toEqual([]);
  });

  it('outcomes: needs changes is caught and the review runs again; a rejection nobody catches ends the run on it (exit 0, not an error)', { timeout: TIMEOUT }, async () => {
    const { messages, final } = expectRun(await runOnce(['run', example('outcomes'), ...responses('outcomes')]), 0, 'complete', 'completed');
    expect(final).toMatchObject({ outputs: { outcome: 'reject' }, error: null });
    const reviews = find(messages, 'review').filter((m) => m.type === 'act');
    expect(reviews.map((m) => [m.state, m.inputs.ecode])).toEqual([
      ['created', undefined],
      ['error', 'changes'],
      ['completed', undefined],
      ['created', undefined],
      ['error', 'rejected'],
    ]);
    expect(reviews[3].inputs.params.title).toBe('Buy a chair for 90?');
    expect(find(messages, 'ordered')).toEqual([]);
    expect(messages.filter((m) => m.type === 'workflow').map((m) => m.state)).toEqual(['created', 'completed']);
  });

  it('http-branch: the order API\'s answer routes the order -- shipped: notified; packed: a person is asked; unknown (404): caught', { timeout: TIMEOUT }, async () => {
    const api = await startPeer();
    api.route('/orders/42', (_req, res) => json(res, 200, { id: 42, state: 'shipped' }));
    api.route('/orders/7', (_req, res) => json(res, 200, { id: 7, state: 'packed' }));
    try {
      const run = (order: number) => runActs(['run', example('http-branch'), '--inputs', JSON.stringify({ api: api.base, order }), ...responses('http-branch')]);
      const shipped = expectRun(await run(42), 0, 'complete', 'completed');
      expect(shipped.final.outputs).toMatchObject({ route: 'notified' });
      expect(find(shipped.messages, 'tell', 'completed')[0].inputs.params.text).toBe('Order 42 is on its way');
      expect(find(shipped.messages, 'ask')).toEqual([]);
      const packed = expectRun(await run(7), 0, 'complete', 'completed');
      expect(packed.final.outputs).toMatchObject({ route: 'asked' });
      expect(find(packed.messages, 'ask', 'created')[0].inputs.params.title).toBe('Order 7 is packed: ship it?');
      const unknown = expectRun(await run(9), 0, 'complete', 'completed');
      expect(unknown.final.outputs).toMatchObject({ route: 'unknown' });
      expect(find(unknown.messages, 'unknown', 'completed')).toHaveLength(1);
      expect(find(unknown.messages, 'check')).toEqual([]);
      expect(api.seen.map((r) => r.path)).toEqual(['/orders/42', '/orders/7', '/orders/9']);
    } finally {
      await api.close();
    }
  });

  it('github-approval: an opened pull request asks for a review, titled from the payload; another event ends at once', { timeout: TIMEOUT }, async () => {
    const pr = { event: 'pull_request', body: { action: 'opened', number: 7, pull_request: { title: 'Fix the login' } } };
    const opened = expectRun(await runOnce(['run', example('github-approval'), ...responses('github-approval'), '--inputs', JSON.stringify(pr)]), 0, 'complete', 'completed');
    expect(opened.final.outputs).toEqual({ outcome: 'approve' });
    expect(find(opened.messages, 'approve', 'created')[0].inputs.params.title).toBe('Review pull request #7: Fix the login');
    const push = expectRun(await runOnce(['run', example('github-approval'), '--inputs', JSON.stringify({ event: 'push', body: {} })]), 0, 'complete', 'completed');
    expect(find(push.messages, 'approve')).toEqual([]);
  });

  it('timeout-escalation: a reminder, a backup approver, then the step fails (exit 1)', { timeout: TIMEOUT }, async () => {
    const r = await runOnce(['run', example('timeout-escalation')]);
    const { messages, final } = expectRun(r, 1, 'error', 'error');
    expect(final.error).toEqual({ ecode: 'err_timeout_8s', message: 'nobody approved in time' });
    const reminder = indexOf(messages, (m) => m.key === 'reminder');
    const backup = indexOf(messages, (m) => m.key === 'backup_approver' && m.state === 'created');
    const failed = indexOf(messages, (m) => m.type === 'workflow' && m.state === 'error');
    expect(reminder).toBeGreaterThan(-1);
    expect(backup).toBeGreaterThan(reminder);
    expect(failed).toBeGreaterThan(backup);
    expect(messages[failed].inputs).toMatchObject({ ecode: 'err_timeout_8s' });
    // A process error is not an input error: nothing on stderr.
    expect(r.stderr).toBe('');
  });

  it('send-back: the first review sends the draft back, the second approves', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(await runOnce(['run', example('send-back'), ...responses('send-back')]), 0, 'complete', 'completed');
    const reviews = find(messages, 'review', 'created').filter((m) => m.type === 'act');
    expect(reviews).toHaveLength(2);
    const statesOf = (tid: string) => messages.filter((m) => m.tid === tid).map((m) => m.state);
    expect(statesOf(reviews[0].tid)).toEqual(['created', 'backed']);
    expect(statesOf(reviews[1].tid)).toEqual(['created', 'completed']);
    // The draft was written twice, the second time between the two reviews.
    const writes = find(messages, 'write', 'created');
    expect(writes).toHaveLength(2);
    expect(messages.indexOf(writes[1])).toBeGreaterThan(messages.indexOf(reviews[0]));
    expect(messages.indexOf(writes[1])).toBeLessThan(messages.indexOf(reviews[1]));
  });

  it('push: the pushed extra check is created and answered too', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(await runOnce(['run', example('push'), ...responses('push')]), 0, 'complete', 'completed');
    const extra = find(messages, 'extra_check', 'created');
    expect(extra).toHaveLength(1);
    expect(extra[0]).toMatchObject({ type: 'act', uses: 'acts.core.irq', name: 'Extra check' });
    expect(find(messages, 'extra_check', 'completed')).toHaveLength(1);
    const stepDone = indexOf(messages, (m) => m.key === 'review' && m.type === 'step' && m.state === 'completed');
    expect(stepDone).toBeGreaterThan(messages.indexOf(find(messages, 'extra_check', 'completed')[0]));
  });

  it('subflow: the child runs as its own process and returns v = 100 to the parent', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(
      await runOnce(['run', example('subflow'), '--model', example('subflow-child'), ...responses('subflow')]),
      0,
      'complete',
      'completed',
    );
    const parent = messages[0];
    expect(parent).toMatchObject({ type: 'workflow', state: 'created', key: 'subflow' });
    const child = find(messages, 'subflow-child', 'created')[0];
    expect(child.type).toBe('workflow');
    expect(child.pid).not.toBe(parent.pid);
    expect(child.inputs).toMatchObject({ v: 10, $parent_pid: parent.pid });
    const childTask = find(messages, 'child_task', 'created')[0];
    expect(childTask.pid).toBe(child.pid);
    expect(childTask.inputs.params).toEqual({ got: 10 });
    const result = find(messages, 'result')[0];
    expect(result.pid).toBe(parent.pid);
    expect(result.inputs.params.v).toBe(100);
    // The child finished before the parent used its value.
    const childDone = indexOf(messages, (m) => m.key === 'subflow-child' && m.state === 'completed');
    expect(childDone).toBeGreaterThan(-1);
    expect(childDone).toBeLessThan(messages.indexOf(result));
  });

  it('hooks: start and finish messages around the workflow and every act', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(await runOnce(['run', example('hooks'), ...responses('hooks')]), 0, 'complete', 'completed');
    const workflowDone = indexOf(messages, (m) => m.type === 'workflow' && m.state === 'completed');
    const finished = indexOf(messages, (m) => m.key === 'workflow_finished');
    expect(workflowDone).toBeGreaterThan(-1);
    expect(finished).toBeGreaterThan(workflowDone);
    const started = indexOf(messages, (m) => m.key === 'workflow_started');
    expect(started).toBeGreaterThan(-1);
    expect(started).toBeLessThan(indexOf(messages, (m) => m.key === 'work' && m.state === 'created'));
    expect(find(messages, 'act_starting')).toHaveLength(2);
    expect(find(messages, 'act_finished')).toHaveLength(2);
    expect(find(messages, 'step_finished')).toHaveLength(1);
  });

  it('code: the sandbox computes total 40 and the label', { timeout: TIMEOUT }, async () => {
    const { final } = expectRun(await runOnce(['run', example('code')]), 0, 'complete', 'completed');
    expect(final.outputs).toEqual({ total: 40, label: 'Total: 40' });
  });
});

describe('acts run: causal order', () => {
  it('approval-chain: created before completed per task, director only after the manager', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(await runOnce(['run', example('approval-chain'), ...responses('approval-chain')]), 0, 'complete', 'completed');
    const tids = new Set(messages.map((m) => m.tid));
    let checked = 0;
    for (const tid of tids) {
      const created = indexOf(messages, (m) => m.tid === tid && m.state === 'created');
      const completed = indexOf(messages, (m) => m.tid === tid && m.state === 'completed');
      expect(completed, `task ${tid} completed`).toBeGreaterThan(-1);
      if (created === -1) continue; // a message act: only its completed message
      expect(created, `task ${tid}`).toBeLessThan(completed);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5); // workflow, 2 steps, 2 irqs
    const managerDone = indexOf(messages, (m) => m.key === 'manager_approve' && m.state === 'completed');
    const directorCreated = indexOf(messages, (m) => m.key === 'director_approve' && m.state === 'created');
    expect(managerDone).toBeGreaterThan(-1);
    expect(directorCreated).toBeGreaterThan(managerDone);
    // Steps too: the director step starts after the manager step ended.
    const managerStepDone = indexOf(messages, (m) => m.key === 'manager' && m.state === 'completed');
    expect(indexOf(messages, (m) => m.key === 'director' && m.state === 'created')).toBeGreaterThan(managerStepDone);
    // The workflow message opens the stream; its completion comes after every step's.
    expect(messages[0]).toMatchObject({ type: 'workflow', state: 'created', tid: '$' });
    const workflowDone = indexOf(messages, (m) => m.type === 'workflow' && m.state === 'completed');
    expect(workflowDone).toBeGreaterThan(indexOf(messages, (m) => m.key === 'director' && m.state === 'completed'));
  });
});

describe('acts run: waiting for an answer', () => {
  it('approval-chain without --respond exits 3 and lists the waiting task', { timeout: TIMEOUT }, async () => {
    const { messages, final } = expectRun(await runOnce(['run', example('approval-chain')]), 3, 'waiting', 'running');
    const created = find(messages, 'manager_approve', 'created');
    expect(created).toHaveLength(1);
    expect(final.tasks).toEqual([{ key: 'manager_approve', tid: created[0].tid, nid: created[0].nid, pid: created[0].pid }]);
    expect(find(messages, 'manager_approve', 'completed')).toEqual([]);
    expect(find(messages, 'director_approve')).toEqual([]);
    expect(final.error).toBeNull();
  });

  it('a partial responses file waits at the first unanswered interrupt', { timeout: TIMEOUT }, async () => {
    // send-back answered only for `write`: the review waits.
    const { messages, final } = expectRun(await runOnce(['run', example('send-back'), '--respond', `${FIX}/write-only.responses.yml`]), 3, 'waiting', 'running');
    const review = find(messages, 'review', 'created').filter((m) => m.type === 'act');
    expect(review).toHaveLength(1);
    expect(final.tasks).toEqual([{ key: 'review', tid: review[0].tid, nid: review[0].nid, pid: review[0].pid }]);
  });
});

describe('acts run: responses files', () => {
  it('the last entry of a list repeats (an approval asked three times in a loop)', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(
      await runOnce(['run', `${FIX}/repeat-loop.yml`, '--respond', `${FIX}/repeat-loop.responses.yml`]),
      0,
      'complete',
      'completed',
    );
    expect(find(messages, 'approve', 'created')).toHaveLength(3);
    // 1st entry, then the 2nd (last) entry for the 2nd and 3rd created messages.
    expect(find(messages, 'approve', 'completed').map((m) => m.outputs.who)).toEqual(['first', 'later', 'later']);
  });

  it('[back, complete]: one send-back, then every later review completes', { timeout: TIMEOUT }, async () => {
    const { messages } = expectRun(
      await runOnce(['run', `${FIX}/send-back-thrice.yml`, '--respond', `${FIX}/send-back-thrice.responses.yml`]),
      0,
      'complete',
      'completed',
    );
    const reviews = find(messages, 'review', 'created').filter((m) => m.type === 'act');
    // review1 (back), review1 again, review2, review3.
    expect(reviews).toHaveLength(4);
    const endOf = (tid: string) => messages.filter((m) => m.tid === tid).map((m) => m.state).at(-1);
    expect(reviews.map((m) => endOf(m.tid))).toEqual(['backed', 'completed', 'completed', 'completed']);
    expect(find(messages, 'write', 'created')).toHaveLength(2);
  });

  it('a refused response is reported on stderr and the run waits (exit 3)', { timeout: TIMEOUT }, async () => {
    const r = await runOnce(['run', example('approval-chain'), '--respond', `${FIX}/refused.responses.yml`]);
    const { final } = expectRun(r, 3, 'waiting', 'running');
    expect(final.tasks?.map((t) => t.key)).toEqual(['manager_approve']);
    expect(r.stderr).toMatch(/manager_approve.*bogus.*refused/);
  });
});

describe('acts run: invalid input exits 2 with one `acts:` line', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['missing model file', ['examples/no-such-model.yml'], /model file 'examples\/no-such-model\.yml' does not exist/],
    ['model path is a directory', ['examples'], /'examples' is a directory/],
    ['missing --model file', [example('subflow'), '--model', 'examples/nope.yml'], /'examples\/nope\.yml' does not exist/],
    ['invalid YAML, with line and column', [`${FIX}/bad-yaml.yml`], /bad-yaml\.yml:5:3: .*\[yaml\.syntax\]/],
    ['unknown uses', [`${FIX}/unknown-uses.yml`], /unknown-uses\.yml:5:\d+: .*acts\.core\.telepathy.*\[model\.unknown_package\]/],
    ['duplicate ids', [`${FIX}/duplicate-ids.yml`], /duplicate-ids\.yml:4:\d+: duplicate id 'same'.*\[model\.duplicate_id\]/],
    ['a model with several problems (first one, and how many more)', [`${FIX}/many-problems.yml`], /many-problems\.yml:5:11: .*\(and 3 more problems/],
    ['--inputs not JSON', [example('branches'), '--inputs', '{amount: 5}'], /--inputs is not valid JSON/],
    ['--inputs an array', [example('branches'), '--inputs', '[1, 2]'], /--inputs must be a JSON object/],
    ['--inputs a string', [example('branches'), '--inputs', '"big"'], /--inputs must be a JSON object/],
    ['inputs_schema violation (type)', [`${FIX}/inputs-schema.yml`, '--inputs', '{"amount": "lots"}'], /inputs validation error: \/amount must be number/],
    ['inputs_schema violation (minimum)', [`${FIX}/inputs-schema.yml`, '--inputs', '{"amount": -5}'], /inputs validation error: \/amount must be >= 0/],
    ['missing responses file', [example('send-back'), '--respond', `${FIX}/nope.responses.yml`], /responses file '.*nope\.responses\.yml' does not exist/],
    ['responses file with a wrong shape', [example('send-back'), '--respond', `${FIX}/bad-responses.yml`], /responses file '.*bad-responses\.yml': review: expected \{ action, options \}/],
    ['responses file that is not YAML', [example('send-back'), '--respond', `${FIX}/bad-yaml-responses.yml`], /responses file '.*bad-yaml-responses\.yml' is not valid YAML: .*line \d+, column \d+$/],
  ];

  it.each(cases)('%s', { timeout: TIMEOUT }, async (_label, args, pattern) => {
    expectInputError(await runActs(['run', ...args]), pattern);
  });

  it('inputs_schema: valid inputs run (the fixture itself is fine)', { timeout: TIMEOUT }, async () => {
    const { final } = expectRun(await runActs(['run', `${FIX}/inputs-schema.yml`, '--inputs', '{"amount": 7}']), 0, 'complete', 'completed');
    expect(final.outputs).toEqual({ amount: 7 });
  });

  it('a subflow to an undeployed model is a process error at run time (exit 1)', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['run', example('subflow'), ...responses('subflow')]);
    const { messages, final } = expectRun(r, 1, 'error', 'error');
    expect(final.error?.message).toMatch(/subflow-child.*not deployed/);
    expect(find(messages, 'init', 'completed')).toHaveLength(1);
    expect(messages.some((m) => m.key === 'subflow-child')).toBe(false);
    expect(r.stderr).toBe('');
  });
});

describe('acts validate', () => {
  it('every example is valid (exit 0)', { timeout: TIMEOUT }, async () => {
    const files = readdirSync(`${ROOT}examples`)
      .filter((f) => f.endsWith('.yml') && !f.endsWith('.responses.yml'))
      .map((f) => `examples/${f}`);
    expect(files.length).toBeGreaterThanOrEqual(12);
    const r = await runActs(['validate', ...files]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const f of files) expect(r.stdout).toContain(`${f}: ok`);
    expect(r.stderr).toBe('');
  });

  it('prints every problem of a model with file:line:col and exits 2', { timeout: TIMEOUT }, async () => {
    const file = `${FIX}/many-problems.yml`;
    const r = await runActs(['validate', file]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const problems = r.stdout.split('\n').filter((l) => /:\d+:\d+: /.test(l));
    const where = problems.map((l) => {
      const m = /^(.+?):(\d+):(\d+): .* \[([a-z_.]+)\](?: \(at (.+)\))?$/.exec(l);
      expect(m, l).not.toBeNull();
      return `${m![1]}:${m![2]}:${m![3]} ${m![4]} ${m![5]}`;
    });
    expect(where).toEqual([
      `${file}:5:11 model.unknown_next steps[0].next`,
      `${file}:7:17 model.unknown_package steps[0].acts[0].uses`,
      `${file}:8:9 model.duplicate_id steps[1].id`,
      `${file}:10:22 model.bad_expression steps[1].branches[0].if`,
    ]);
    expect(r.stdout).toContain(`${file}: 4 problems`);
  });

  it('reports invalid YAML with its line and column', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['validate', `${FIX}/bad-yaml.yml`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^test\/fixtures\/cli\/bad-yaml\.yml:5:3: .*\[yaml\.syntax\]$/m);
  });

  it('a missing file exits 2 and the other files are still checked', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['validate', 'examples/no-such-model.yml', example('loop')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no-such-model\.yml' does not exist/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stdout).toContain('examples/loop.yml: ok');
  });
});

describe('--help and usage', () => {
  it('acts --help lists the commands', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: acts/);
    expect(r.stdout).toMatch(/^\s+validate /m);
    expect(r.stdout).toMatch(/^\s+run /m);
  });

  it('acts run --help mentions its options and exit codes', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['run', '--help']);
    expect(r.code).toBe(0);
    for (const option of ['--model <file>', '--inputs <json>', '--respond <file>']) expect(r.stdout).toContain(option);
    expect(r.stdout).toMatch(/Exit codes: 0 complete.*1 process error.*2 invalid input.*3 waiting/);
  });

  it('acts validate --help', { timeout: TIMEOUT }, async () => {
    const r = await runActs(['validate', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: acts validate .*<model\.\.\.>/);
  });

  it.each([
    ['no command', []],
    ['an unknown command', ['frobnicate']],
    ['run without a model', ['run']],
    ['validate without a file', ['validate']],
    ['an unknown option', ['run', example('loop'), '--bogus']],
  ])('%s exits 2', { timeout: TIMEOUT }, async (_label, args) => {
    const r = await runActs(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.lines.filter((l) => typeof l === 'object')).toEqual([]);
  });
});

describe('acts run: output to a reader that stops early', () => {
  it('`acts run … | head -1` ends normally, without an EPIPE stack trace', { timeout: TIMEOUT }, async () => {
    // A long loop prints many lines; the reader closes the pipe after the first chunk.
    const child = spawn(process.execPath, ['bin/acts.mjs', 'run', example('loop'), '--inputs', '{"input": 300}'], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|^\s+at /m);
    expect(code).toBe(0);
  });
});
