/**
 * The heatmap of a model's page (issue 14, item 6): six runs of a fresh model — three answered,
 * one failed at its act, two still waiting there — and a viewer (viewers may watch) turns the
 * heatmap on: each node's figures match those runs (at the node now, passed, errors), the chip
 * says them, colouring by error rate paints the failing act at the top of the scale and the act
 * nobody failed at its bottom, and the range picker reads again (a range chosen before the runs:
 * nothing passed). The run page of a run waiting for a person draws its graph with no backpressure
 * badge (nothing waits in the runtime); one whose act of an external package waits for a worker
 * carries "1 unacked" on that act (its delivery).
 */
import { heatModel } from '../test/helpers/heat-model.ts';
import { screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

/** A `datetime-local` field's value for epoch ms, in the machine's zone (the browser's too). */
function localInput(ms: number): string {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

test('heatmap counts on the model page match the runs started; a viewer may watch', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const id = uniqueName('heat');
  await deployModel(heatModel(id));
  for (let i = 0; i < 6; i++) await startProcess(id);
  await expect.poll(async () => (await adminApi.inbox.list.query({ mid: id })).count).toBe(6);
  const waiting = (await adminApi.inbox.list.query({ mid: id })).rows;
  for (const task of waiting.slice(0, 3)) await adminApi.tasks.complete.mutate({ pid: task.pid, tid: task.tid });
  await adminApi.tasks.error.mutate({ pid: waiting[3].pid, tid: waiting[3].tid, options: { ecode: 'rejected' } });
  await expect.poll(async () => (await adminApi.insights.nodeStats.query({ mid: id })).stats.find((s) => s.nid === 'set')?.passed ?? 0).toBe(3);

  await signInAs(['viewer']);
  await page.goto(`/models/${id}`);
  // pages load slowly on a busy machine: the first look at each waits longer
  await expect(page.getByTestId('node-act:ask')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('heat-act:ask')).toHaveCount(0);
  await page.getByRole('button', { name: 'Heatmap' }).click();

  const ask = page.getByTestId('heat-act:ask');
  await expect(ask).toHaveAttribute('data-now', '2', { timeout: 20_000 });
  await expect(ask).toHaveAttribute('data-passed', '4');
  await expect(ask).toHaveAttribute('data-errors', '1');
  await expect(ask).toContainText('2 now · 4 passed');
  await expect(ask).toContainText('25 % errors');
  const step = page.getByTestId('heat-step:s1');
  await expect(step).toHaveAttribute('data-now', '2');
  await expect(step).toHaveAttribute('data-passed', '4');
  const set = page.getByTestId('heat-act:set');
  await expect(set).toHaveAttribute('data-now', '0');
  await expect(set).toHaveAttribute('data-passed', '3');
  await expect(set).toHaveAttribute('data-errors', '0');
  await expect(page.getByTestId('heatmap-legend')).toBeVisible();

  // by error rate: the failing act is the top of the scale (red), the other act its bottom (pale yellow)
  await page.getByLabel('Heatmap metric').selectOption('rate');
  await expect(ask.locator('b')).toHaveText('25 %');
  await expect(ask).toHaveAttribute('style', /--heat: hsl\(0 /);
  await expect(set).toHaveAttribute('style', /--heat: hsl\(55 /);
  await expect(page.getByTestId('heatmap-legend')).toContainText('25 %');
  await screenshot(page, 'heatmap');

  // another range reads again: every run is younger than 15 minutes
  await page.getByLabel('Heatmap range').selectOption('15m');
  await expect(ask).toHaveAttribute('data-passed', '4');
  // a chosen range that ended before the runs: nothing passed in it; two runs are at the act all the same
  await page.getByLabel('Heatmap range').selectOption('custom');
  await page.getByLabel('Heatmap from').fill(localInput(Date.now() - 2 * 3_600_000));
  await page.getByLabel('Heatmap to').fill(localInput(Date.now() - 3_600_000));
  await expect(ask).toHaveAttribute('data-passed', '0');
  await expect(ask).toHaveAttribute('data-now', '2');

  // a run waiting for a person: its graph, and no backpressure badge (nothing waits in the runtime)
  await page.goto(`/runs/${waiting[4].pid}`);
  await expect(page.getByTestId('run-graph').getByTestId('node-act:ask')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-testid^="backpressure-"]')).toHaveCount(0);
});

test("a run's act whose delivery no worker acknowledged carries an unacked badge on its node", async ({ page, adminApi, signInAs }) => {
  test.setTimeout(60_000);
  const pkg = `ext.${uniqueName('heat-wait')}`;
  await adminApi.packages.register.mutate({ name: pkg, schema: { type: 'object' } });
  const id = uniqueName('heat-ext');
  await deployModel(`id: ${id}\nsteps:\n  - id: s1\n    acts:\n      - { id: work, uses: ${pkg}, params: {} }\n`);
  const { pid } = await startProcess(id);
  await expect.poll(async () => (await adminApi.insights.runBackpressure.query({ pid })).tasks.map((t) => [t.nid, t.unacked])).toEqual([['work', 1]]);

  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  const badge = page.getByTestId('backpressure-act:work');
  await expect(badge).toHaveAttribute('data-unacked', '1', { timeout: 20_000 });
  await expect(badge).toHaveText('1 unacked');
  await screenshot(page, 'run-backpressure');
  await expect(page.locator('[data-testid^="backpressure-"]')).toHaveCount(1);
});
