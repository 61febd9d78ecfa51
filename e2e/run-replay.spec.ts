/**
 * Time-travel replay on the run page (issue 14, item 1): a viewer scrubs a finished run and sees
 * the node colours of three moments, the moment kept in the URL; a `?at=` link opens the page at
 * that moment with the events around it (the operator's action with who sent it) and the
 * variables then; play runs to the end; a subflow act opens its child run at the same moment,
 * and a running run replayed at a moment keeps its colours while its history grows live.
 * With `ACTS_RUNS_PERF=1`, a 10,000-task run prints the replay's first paint and one scrub step.
 */
import type { Page } from '@playwright/test';
import type { Api } from './helpers/api.ts';
import { screenshot } from './helpers/browser.ts';
import { startBigRun } from './helpers/big-run.ts';
import { threeApprovals } from './helpers/models.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect as baseExpect, test } from './helpers/test.ts';

// the machine is shared: a page's first read may take a while under load
const expect = baseExpect.configure({ timeout: 15_000 });

async function complete(api: Api, pid: string, key: string, options: Record<string, unknown> = {}): Promise<void> {
  await expect.poll(async () => (await api.processes.summary.query({ pid })).tasks.some((t) => t.key === key && t.state === 'interrupted')).toBe(true);
  const task = (await api.processes.summary.query({ pid })).tasks.find((t) => t.key === key && t.state === 'interrupted')!;
  await api.tasks.complete.mutate({ pid, tid: task.tid, options });
}

/** Moves the scrubber to `at` (the slider's value, as a person dragging it sets it). */
async function scrub(page: Page, at: number): Promise<void> {
  await page.getByTestId('replay-slider').fill(String(at));
}

const node = (page: Page, id: string) => page.getByTestId(`node-${id}`);

async function expectStates(page: Page, states: Record<string, string | null>): Promise<void> {
  for (const [id, state] of Object.entries(states)) {
    if (state === null) await expect(node(page, id), id).not.toHaveAttribute('data-state', /.+/);
    else await expect(node(page, id), id).toHaveAttribute('data-state', state);
  }
}

test('a viewer scrubs a finished run: node colours at three moments, the moment in the URL, a ?at= link, play to the end', async ({ page, context, adminApi, signInAs }) => {
  test.setTimeout(120_000);
  const mid = uniqueName('replay');
  await deployModel(threeApprovals(mid));
  const { pid } = await startProcess(mid);
  await complete(adminApi, pid, 'ask1', { approved: true });
  await complete(adminApi, pid, 'ask2');
  await complete(adminApi, pid, 'ask3');
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  const { tasks, process } = await adminApi.processes.summary.query({ pid });
  const task = (key: string) => tasks.find((t) => t.key === key)!;
  const [ask1, ask2, ask3] = [task('ask1'), task('ask2'), task('ask3')];

  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  await expectStates(page, { 'act:ask1': 'completed', 'step:third/acts[0]': 'completed', 'workflow:end': 'completed' });

  // 1: the first approval waits; nothing later has started
  await scrub(page, ask1.start_time);
  await expectStates(page, { 'act:ask1': 'interrupted', 'step:first': 'running', 'act:ask2': null, 'step:third/acts[0]': null, 'workflow:end': null });
  await expect(page).toHaveURL((url) => url.searchParams.get('at') === String(ask1.start_time));
  // 2: the first is done, the second waits
  await scrub(page, ask2.start_time);
  await expectStates(page, { 'act:ask1': 'completed', 'step:first': 'completed', 'act:ask2': 'interrupted', 'step:third/acts[0]': null, 'workflow:end': null });
  // 3: the end: every approval completed, the run too
  await scrub(page, process.end_time);
  await expectStates(page, { 'act:ask1': 'completed', 'act:ask2': 'completed', 'step:third/acts[0]': 'completed', 'workflow:end': 'completed' });
  await expect(page).toHaveURL((url) => url.searchParams.get('at') === String(process.end_time));

  // a link to a moment opens the page there: colours, events with who acted, variables then
  const shared = await context.newPage();
  await shared.goto(`/runs/${pid}?at=${ask2.start_time}`);
  await expectStates(shared, { 'act:ask1': 'completed', 'act:ask2': 'interrupted', 'step:third/acts[0]': null });
  const events = shared.getByTestId('replay-events');
  await expect(events.locator('[data-kind="action"]').first()).toContainText('admin: task.complete (approved)');
  await node(shared, 'act:ask1').click();
  const details = shared.getByTestId('moment-details');
  await expect(details).toContainText('ask1');
  await expect(details.getByRole('region', { name: 'Process variables then' })).toContainText('"approved": true');
  await screenshot(shared, 'run-replay');

  // the previous-event step goes back before the second approval started
  await shared.getByRole('button', { name: 'Previous event' }).click();
  await expect(shared).toHaveURL((url) => Number(url.searchParams.get('at')) < ask2.start_time);
  await expect(node(shared, 'act:ask2')).not.toHaveAttribute('data-state', 'interrupted');

  // play from the first moment runs to the end and stops there
  await scrub(page, ask1.start_time);
  await page.getByLabel('Speed').selectOption('50');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByTestId('replay-bar')).toHaveAttribute('data-at', String(process.end_time), { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'false');
  await expectStates(page, { 'step:third/acts[0]': 'completed', 'workflow:end': 'completed' });
  expect(ask3.end_time).toBeLessThanOrEqual(process.end_time);

  // back to live
  await page.getByRole('button', { name: 'Live', exact: true }).click();
  await expect(page).toHaveURL((url) => !url.searchParams.has('at'));
  await expect(page.getByTestId('task-details').or(page.getByText('Select a task'))).toBeVisible();
});

test('a running run replays up to now, and a subflow act opens its child run at the same moment', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const child = uniqueName('replay-child');
  const parent = uniqueName('replay-parent');
  await deployModel(`id: ${child}
name: Child
steps:
  - id: wait
    acts:
      - { id: hold, uses: acts.core.irq, key: hold }
`);
  await deployModel(`id: ${parent}
name: Parent
steps:
  - id: call
    acts:
      - { id: sub, uses: acts.core.subflow, params: { to: ${child} } }
`);
  const { pid } = await startProcess(parent);
  await expect.poll(async () => (await adminApi.processes.list.query({ mid: child })).rows.length).toBe(1);
  const childPid = (await adminApi.processes.list.query({ mid: child })).rows[0].pid;
  await expect.poll(async () => (await adminApi.processes.summary.query({ pid: childPid })).tasks.some((t) => t.key === 'hold' && t.state === 'interrupted')).toBe(true);
  const hold = (await adminApi.processes.summary.query({ pid: childPid })).tasks.find((t) => t.key === 'hold')!;
  const at = hold.start_time + 1;

  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}?at=${at}`);
  await expect(node(page, 'act:sub')).toHaveAttribute('data-state', 'running');
  await node(page, 'act:sub').click();
  await page.getByTestId('child-at-moment').click();
  await expect(page).toHaveURL((url) => url.pathname === `/runs/${childPid}` && url.searchParams.get('at') === String(at));
  await expect(node(page, 'act:hold')).toHaveAttribute('data-state', 'interrupted');
  await expect(page.getByTestId('replay-when')).not.toHaveText('Live');

  // the child goes on while it is replayed: the moment stays, its history grows live (the scrubber's end follows)
  const end = Number(await page.getByTestId('replay-slider').getAttribute('max'));
  await adminApi.tasks.complete.mutate({ pid: childPid, tid: hold.tid, options: {} });
  await expect(page.getByTestId('replay-events').locator(`[data-key="e:${hold.tid}"]`)).toContainText('ended');
  await expect(node(page, 'act:hold')).toHaveAttribute('data-state', 'interrupted');
  await expect.poll(async () => Number(await page.getByTestId('replay-slider').getAttribute('max'))).toBeGreaterThan(end);
  // back to live: the run now
  await page.getByRole('button', { name: 'Live', exact: true }).click();
  await expect(page).toHaveURL((url) => !url.searchParams.has('at'));
  await expect(node(page, 'act:hold')).toHaveAttribute('data-state', 'completed');
});

test('performance: replay of a run with 10,000 tasks — first paint at a moment and one scrub step', async ({ page, adminApi, signInAs }) => {
  test.skip(!process.env.ACTS_RUNS_PERF, 'set ACTS_RUNS_PERF=1 for the 10,000-task replay figures (about a minute)');
  test.setTimeout(1_000_000);
  const { pid } = await startBigRun(adminApi, 'bigreplay', 900_000);
  const { tasks } = await adminApi.processes.summary.query({ pid });
  expect(tasks.length).toBeGreaterThanOrEqual(10_000);
  const spread = tasks.find((t) => t.nid === 'spread')!;
  const check = tasks.find((t) => t.key === 'check')!;
  const middle = Math.round((spread.start_time + check.start_time) / 2);

  await signInAs(['viewer']);
  // first paints, the live page and the replay at a moment in turn, twice: the second of each counts
  // (the first navigation also loads the studio's code)
  const livePaint = async () => {
    await page.goto(`/runs/${pid}`);
    const painted = await page.waitForFunction(() => document.querySelector('[data-testid="node-act:check"]')?.getAttribute('data-state') === 'interrupted' && performance.now(), null, { timeout: 60_000 });
    return Math.round(Number(await painted.jsonValue()));
  };
  const replayPaint = async () => {
    await page.goto(`/runs/${pid}?at=${middle}`);
    const painted = await page.waitForFunction(
      () => {
        const spreadNode = document.querySelector('[data-testid="node-act:spread"]');
        const checkNode = document.querySelector('[data-testid="node-act:check"]');
        return spreadNode?.getAttribute('data-state') === 'running' && checkNode && !checkNode.getAttribute('data-state') && performance.now();
      },
      null,
      { timeout: 60_000 },
    );
    return Math.round(Number(await painted.jsonValue()));
  };
  const paints = { live: [await livePaint()], replay: [await replayPaint()] };
  paints.live.push(await livePaint());
  paints.replay.push(await replayPaint());
  const [liveFirstPaint, firstPaint] = [paints.live[1], paints.replay[1]];
  const listed = await page.waitForFunction(() => document.querySelector('[data-testid="replay-events"] li') !== null && performance.now(), null, { timeout: 60_000 });
  const eventsShown = Math.round(Number(await listed.jsonValue()));

  // one scrub step: the slider's value set as a drag sets it, to the frame that shows the new colours
  const step = async (to: number, checkState: string | null) =>
    page.evaluate(
      ({ to, checkState }) =>
        new Promise<number>((resolve) => {
          const slider = document.querySelector('[data-testid="replay-slider"]') as HTMLInputElement;
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
          const started = performance.now();
          setter.call(slider, String(to));
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          const poll = () => {
            const state = document.querySelector('[data-testid="node-act:check"]')?.getAttribute('data-state') ?? null;
            if (state === checkState) resolve(performance.now() - started);
            else requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }),
      { to, checkState },
    );
  const steps: number[] = [];
  for (let i = 0; i < 5; i++) {
    steps.push(await step(check.start_time, 'interrupted'));
    steps.push(await step(middle - i, null));
  }
  steps.sort((a, b) => a - b);

  console.log(
    `replay of ${tasks.length} tasks: first paint at a moment ${firstPaint} ms after navigation (the live page: ${liveFirstPaint} ms; events listed at ${eventsShown} ms; first navigations: live ${paints.live[0]} ms, replay ${paints.replay[0]} ms); ` +
      `scrub step to the painted frame: median ${Math.round(steps[steps.length >> 1])} ms, max ${Math.round(steps[steps.length - 1])} ms (${steps.length} steps)`,
  );
});
