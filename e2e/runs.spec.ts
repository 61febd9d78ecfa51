/**
 * Runs: a monitor watches a run page while the workflow advances through the API (node states
 * change live, and only the nodes whose state changed render again), a failing code act shows its
 * error on its node and in the errors panel, the runs list shows a new run live, and only
 * operators get the abort and set-variables actions; the list is searched by run id, business key
 * or input value (the query in the URL) and says why a run failed. With `ACTS_RUNS_PERF=1`, a 10,000-task run
 * prints the page's first render times and its per-node render counts.
 */
import type { Page } from '@playwright/test';
import type { Api } from './helpers/api.ts';
import { screenshot } from './helpers/browser.ts';
import { startBigRun } from './helpers/big-run.ts';
import { threeApprovals } from './helpers/models.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

/** A model whose code act `boom` throws "the ledger is closed": the run fails with an empty ecode. */
function throwsWithoutCode(id: string): string {
  return `id: ${id}
name: Fails
steps:
  - id: compute
    acts:
      - id: boom
        uses: acts.transform.code
        params: |
          throw new Error("the ledger is closed");
`;
}

/** Completes the open irq task of `key` as the admin. */
async function complete(api: Api, pid: string, key: string): Promise<void> {
  const { tasks } = await api.processes.get.query({ pid });
  const task = tasks.find((t) => t.key === key && t.state === 'interrupted');
  if (!task) throw new Error(`no open '${key}' task: ${tasks.map((t) => `${t.key}=${t.state}`).join(', ')}`);
  await api.tasks.complete.mutate({ pid, tid: task.tid, options: {} });
}

/**
 * Counts, per graph node, the commits in which React rendered its node component: a stand-in for
 * React DevTools (installed before React loads) that compares each node component's props object
 * with the one of the previous commit — a bail-out keeps the very same object.
 */
async function countNodeRenders(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __nodeRenders: Record<string, number>; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
    w.__nodeRenders = {};
    const lastProps = new Map<string, unknown>();
    type Fiber = { child: Fiber | null; sibling: Fiber | null; type: unknown; memoizedProps: { id?: string; data?: { node?: { id?: string } } } | null };
    const visit = (root: Fiber | null) => {
      const stack: Fiber[] = root ? [root] : [];
      while (stack.length) {
        const fiber = stack.pop()!;
        const props = fiber.memoizedProps;
        if (typeof fiber.type === 'function' && props && typeof props.id === 'string' && props.data?.node?.id === props.id) {
          if (lastProps.get(props.id) !== props) {
            lastProps.set(props.id, props);
            w.__nodeRenders[props.id] = (w.__nodeRenders[props.id] ?? 0) + 1;
          }
        }
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
    };
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberRoot: (_id: number, root: { current: Fiber }) => visit(root.current),
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      checkDCE: () => undefined,
    };
  });
}

const renders = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { __nodeRenders: Record<string, number> }).__nodeRenders }));
const states = (page: Page) =>
  page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid^="node-"]')].map((n) => [n.getAttribute('data-testid')!.slice(5), n.getAttribute('data-state') ?? ''])));

test('a monitor sees node colours change live while the run advances, and only changed nodes render again', async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('watch');
  await deployModel(threeApprovals(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await countNodeRenders(page);
  await page.goto(`/runs/${pid}`);

  const ask1 = page.getByTestId('node-act:ask1');
  const ask2 = page.getByTestId('node-act:ask2');
  // The third act has no YAML id: its engine id is generated, mapped through processes.model.
  const ask3 = page.getByTestId('node-step:third/acts[0]');
  await expect(ask1).toHaveAttribute('data-state', 'interrupted');
  await expect(ask1).toContainText('Waiting for a person');
  await expect(ask2).not.toHaveAttribute('data-state', /.+/);

  const before = await states(page);
  const rendersBefore = await renders(page);
  await complete(adminApi, pid, 'ask1');
  await expect(ask1).toHaveAttribute('data-state', 'completed');
  await expect(ask1).toContainText('Completed');
  await expect(ask2).toHaveAttribute('data-state', 'interrupted');
  await expect(page.getByTestId('node-step:first')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('run-timeline').locator('[data-key^="t:"]', { hasText: 'ask2' })).toHaveAttribute('data-state', 'interrupted');

  // Only the nodes whose state changed rendered again.
  const after = await states(page);
  const rendersAfter = await renders(page);
  const changed = Object.keys(after).filter((id) => after[id] !== before[id]).sort();
  const rendered = Object.keys(rendersAfter).filter((id) => rendersAfter[id] !== rendersBefore[id]).sort();
  console.log(`node renders after one advance: ${rendered.length} of ${Object.keys(after).length} nodes (${rendered.join(', ')}); state changed: ${changed.join(', ')}`);
  expect(rendered).toEqual(changed);
  await page.getByTestId('node-act:ask2').click();
  await expect(page.getByTestId('task-details')).toContainText('ask2');
  await expect(ask2).toHaveAttribute('data-selected', 'true');
  // the selection is a ring of its own, apart from the state's border, in both themes
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const ring = await ask2.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), offset: parseFloat(style.outlineOffset), colour: style.outlineColor, border: style.borderTopColor };
    });
    expect(ring, scheme).toMatchObject({ style: 'solid', width: 3, offset: 3 });
    expect(ring.colour, scheme).not.toBe(ring.border);
  }
  expect(await page.getByTestId('node-act:ask1').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
  await screenshot(page, 'run-live');

  await complete(adminApi, pid, 'ask2');
  await expect(ask2).toHaveAttribute('data-state', 'completed');
  await expect(ask3).toHaveAttribute('data-state', 'interrupted');
  await complete(adminApi, pid, 'ask3');
  await expect(page.getByTestId('run-state')).toContainText('Completed');
  await expect(page.getByTestId('node-workflow:end')).toHaveAttribute('data-state', 'completed');
});

test('a run whose code act throws shows the error on its node and in the errors panel', async ({ page, signInAs }) => {
  const mid = uniqueName('fails');
  await deployModel(throwsWithoutCode(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  const node = page.getByTestId('node-act:boom');
  await expect(node).toHaveAttribute('data-state', 'error');
  await expect(node.getByTestId('node-problem')).toHaveAttribute('aria-label', /the ledger is closed/);
  const panel = page.getByTestId('run-errors');
  await expect(panel).toContainText('the ledger is closed');
  await panel.getByRole('button', { name: 'boom' }).click();
  await expect(page.getByTestId('task-details')).toContainText('the ledger is closed');
});

test('the runs list shows a new run live, with its state', async ({ page, signInAs }) => {
  const mid = uniqueName('listed');
  await deployModel(threeApprovals(mid));
  await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto('/runs');
  await expect(page.getByRole('table', { name: 'Runs' })).toBeVisible();
  const { pid } = await startProcess(mid);
  const row = page.locator(`[role="row"][data-pid="${pid}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('Running');
  await page.getByLabel('Model').selectOption(mid);
  await expect(page.locator('[role="row"][data-pid]')).toHaveCount(2);
  await screenshot(page, 'runs');
});

test('the runs filters, sort and page are kept in the URL: a filtered view survives a reload and can be shared', async ({ page, context, adminApi, signInAs }) => {
  const mid = uniqueName('filtered');
  await deployModel(threeApprovals(mid));
  const { pid: running } = await startProcess(mid);
  const { pid: aborted } = await startProcess(mid);
  await adminApi.processes.abort.mutate({ pid: aborted });
  await signInAs(['viewer']);
  await page.goto('/runs');
  const rows = page.locator('[role="row"][data-pid]');
  await page.getByLabel('Model').selectOption(mid);
  await page.getByLabel('State').selectOption('aborted');
  await page.getByRole('button', { name: 'Workflow' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/runs' && url.searchParams.get('model') === mid && url.searchParams.get('state') === 'aborted' && url.searchParams.get('sort') === 'name.desc');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-pid', aborted);

  await page.reload();
  await expect(page.getByLabel('Model')).toHaveValue(mid);
  await expect(page.getByLabel('State')).toHaveValue('aborted');
  await expect(page.getByRole('columnheader', { name: 'Workflow' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-pid', aborted);

  // a shared link opens the same view; the time range and the page are in it too
  const shared = await context.newPage();
  await shared.goto(`/runs?model=${mid}&state=running&from=2000-01-01T00:00`);
  await expect(shared.getByLabel('Started after')).toHaveValue('2000-01-01T00:00');
  await expect(shared.locator('[role="row"][data-pid]')).toHaveCount(1);
  await expect(shared.locator('[role="row"][data-pid]').first()).toHaveAttribute('data-pid', running);
  await shared.getByLabel('Started before').fill('2000-01-02T00:00');
  await expect(shared).toHaveURL((url) => url.searchParams.get('to') === '2000-01-02T00:00');
  await expect(shared.getByText('No run matches these filters')).toBeVisible();
  await shared.goto(`/runs?model=${mid}&page=2`);
  await expect(shared.getByText('No run matches these filters')).toBeVisible();
  await shared.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(shared).toHaveURL((url) => url.pathname === '/runs' && url.search === '');
  await expect(shared.locator(`[role="row"][data-pid="${running}"]`)).toBeVisible();
});

test('the runs search finds a run by id prefix, business key or input value; the query is in the URL', async ({ page, context, adminApi, signInAs }) => {
  const mid = uniqueName('searched');
  await deployModel(threeApprovals(mid));
  const tag = uniqueName('cust');
  const ada = (await adminApi.processes.start.mutate({ mid, inputs: { customer: `Ada ${tag}` }, idempotencyKey: `order-${tag}` })).pid;
  const bob = (await adminApi.processes.start.mutate({ mid, inputs: { customer: `Bob ${tag}` } })).pid;
  await signInAs(['viewer']);
  await page.goto('/runs');
  const rows = page.locator('[role="row"][data-pid]');
  const search = page.getByLabel('Search');
  await expect(rows.first()).toBeVisible();

  // an input value, in other case; typing is debounced into one query, kept in the URL
  await search.fill(`ADA ${tag.toUpperCase()}`);
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === `ADA ${tag.toUpperCase()}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-pid', ada);
  // a part of an input value both share
  await search.fill(tag);
  await expect(rows).toHaveCount(2);
  // the business key the run was started with
  await search.fill(`order-${tag}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-pid', ada);
  // the start of a run id
  await search.fill(bob.slice(0, 12));
  await expect(rows.first()).toHaveAttribute('data-pid', bob);
  await screenshot(page, 'runs-search');

  // shared: the link opens the same search
  const shared = await context.newPage();
  await shared.goto(`/runs?q=${encodeURIComponent(`order-${tag}`)}`);
  await expect(shared.getByLabel('Search')).toHaveValue(`order-${tag}`);
  await expect(shared.locator('[role="row"][data-pid]')).toHaveCount(1);
  await expect(shared.locator('[role="row"][data-pid]').first()).toHaveAttribute('data-pid', ada);
  await shared.getByLabel('Search').fill('no such run anywhere');
  await expect(shared.getByText('No run matches these filters')).toBeVisible();
  await shared.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(shared.getByLabel('Search')).toHaveValue('');
  await expect(shared).toHaveURL((url) => url.search === '');
});

test('the runs list says why a run failed, without a stray separator when the error has no code', async ({ page, signInAs }) => {
  const mid = uniqueName('nocode');
  await deployModel(throwsWithoutCode(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs?model=${mid}`);
  const row = page.locator(`[role="row"][data-pid="${pid}"]`);
  await expect(row).toHaveAttribute('data-state', 'error');
  const reason = row.getByRole('cell').last();
  await expect(reason).toContainText('the ledger is closed');
  expect((await reason.textContent())?.trim()).not.toMatch(/^:/);
  await page.goto(`/runs/${pid}`);
  await expect(page.getByTestId('run-errors')).toContainText('the ledger is closed');
  await expect(page.getByTestId('run-errors')).not.toContainText(/with\s*:|\s:\s/);
});

test('a viewer sees the run but no abort or set-variables action', async ({ page, signInAs }) => {
  const mid = uniqueName('view');
  await deployModel(threeApprovals(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  await expect(page.getByTestId('node-act:ask1')).toHaveAttribute('data-state', 'interrupted');
  await expect(page.getByRole('button', { name: 'Abort run' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Set variables' })).toHaveCount(0);
});

test('an operator sets variables (checked as a JSON object) and aborts after confirming', async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('act');
  await deployModel(threeApprovals(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  await page.getByRole('button', { name: 'Set variables' }).click();
  const field = page.getByLabel('Variables (a JSON object)');
  await field.fill('[1, 2]');
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(page.getByText('Write an object of variables')).toBeVisible();
  await field.fill('{"amount": 300}');
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(field).toHaveCount(0);
  expect((await adminApi.processes.get.query({ pid })).variables).toMatchObject({ amount: 300 });

  await page.getByRole('button', { name: 'Abort run' }).click();
  await page.getByRole('button', { name: 'Keep running' }).click();
  await page.getByRole('button', { name: 'Abort run' }).click();
  await page.getByRole('button', { name: 'Yes, abort' }).click();
  await expect(page.getByTestId('run-state')).toContainText('Aborted');
  // The open act ends the way the engine ended it (an abort skips open tasks).
  const ask1 = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.key === 'ask1')!;
  expect(ask1.state).not.toBe('interrupted');
  await expect(page.getByTestId('node-act:ask1')).toHaveAttribute('data-state', ask1.state);
  await expect(page.getByRole('button', { name: 'Abort run' })).toHaveCount(0);
});

test('performance: a run with 10,000 tasks renders its page and timeline fast, and an update renders only changed nodes', async ({ page, adminApi, signInAs }) => {
  test.skip(!process.env.ACTS_RUNS_PERF, 'set ACTS_RUNS_PERF=1 for the 10,000-task figures (about a minute)');
  test.setTimeout(240_000);
  const { pid, started } = await startBigRun(adminApi, 'big', 180_000);
  const tasks = (await adminApi.processes.summary.query({ pid })).tasks.length;
  console.log(`engine: ${tasks} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(tasks).toBeGreaterThanOrEqual(10_000);

  await signInAs(['viewer']);
  await countNodeRenders(page);
  const read = page.waitForResponse((r) => r.url().includes('processes.summary'));
  await page.goto(`/runs/${pid}`);
  const response = await read;
  const bytes = (await response.body()).length;
  const pageReady = await page.waitForFunction(() => document.querySelector('[data-testid="node-act:check"]')?.getAttribute('data-state') === 'interrupted' && performance.now(), null, { timeout: 30_000 });
  const timelineReady = await page.waitForFunction(() => document.querySelector('[data-testid="run-timeline"] [data-key]') !== null && performance.now(), null, { timeout: 30_000 });
  const readTiming = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('processes.summary')) as PerformanceResourceTiming | undefined;
    return entry ? { start: entry.startTime, end: entry.responseEnd } : null;
  });
  const count = Number((await page.getByTestId('timeline-count').textContent())?.split(' ')[0]);
  const rows = await page.locator('[data-testid="run-timeline"] [data-key]').count();
  console.log(
    `run page: graph coloured at ${Math.round(Number(await pageReady.jsonValue()))} ms after navigation, timeline at ${Math.round(Number(await timelineReady.jsonValue()))} ms; ` +
      `processes.summary ${(bytes / 1e6).toFixed(1)} MB in ${readTiming ? Math.round(readTiming.end - readTiming.start) : '?'} ms; timeline ${count} entries, ${rows} rows in the DOM`,
  );
  expect(count).toBeGreaterThanOrEqual(10_000);
  expect(rows).toBeLessThan(80);

  const before = await states(page);
  const rendersBefore = await renders(page);
  const check = (await adminApi.processes.summary.query({ pid })).tasks.find((t) => t.key === 'check')!;
  const sent = Date.now();
  await adminApi.tasks.complete.mutate({ pid, tid: check.tid, options: {} });
  await expect(page.getByTestId('node-act:check')).toHaveAttribute('data-state', 'completed');
  const latency = Date.now() - sent;
  await expect(page.getByTestId('node-workflow:end')).toHaveAttribute('data-state', 'completed');
  const after = await states(page);
  const rendersAfter = await renders(page);
  const changed = Object.keys(after).filter((id) => after[id] !== before[id]).sort();
  const rendered = Object.keys(rendersAfter).filter((id) => rendersAfter[id] !== rendersBefore[id]).sort();
  console.log(`update: completed → node coloured in ${latency} ms; nodes rendered ${rendered.length} of ${Object.keys(after).length} (${rendered.join(', ')}); changed ${changed.join(', ')}`);
  expect(rendered).toEqual(changed);
});
