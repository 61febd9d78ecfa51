/**
 * Bulk actions on the runs list (issue 14 item 5): an operator selects all 200 runs matching a
 * filter and aborts them — a confirmation, a progress bar, the per-run results — and every run
 * ends aborted with ONE audit entry naming all 200; an operator aborts two picked rows and the
 * third keeps running; the failing-node filter selects the runs that failed at a node (aborting
 * them says they already ended); a viewer gets no checkboxes and no bulk actions.
 */
import type { Api } from './helpers/api.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function waits(id: string): string {
  return `id: ${id}
name: Waits
steps:
  - id: s1
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
`;
}

/** Starts `n` runs of `mid`, 20 at a time. */
async function startRuns(mid: string, n: number, api: Api): Promise<string[]> {
  const pids: string[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => startProcess(mid, {}, api)));
    pids.push(...batch.map((b) => b.pid));
  }
  return pids;
}

test('an operator aborts all 200 runs matching a filter: confirmation, progress, per-run results, one audit entry', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(180_000);
  const mid = uniqueName('bulk');
  await deployModel(waits(mid));
  const pids = await startRuns(mid, 200, adminApi);
  const other = uniqueName('keep');
  await deployModel(waits(other));
  const { pid: kept } = await startProcess(other);

  await signInAs(['operator']);
  await page.goto(`/runs?model=${mid}&ver=1`);
  const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
  // the first page of 200 runs on a loaded machine
  await expect(page.locator('[role="row"][data-pid]').first()).toBeVisible({ timeout: 30_000 });
  await expect(bar).toContainText('No run selected');
  await bar.getByRole('button', { name: 'Select all 200 matching' }).click();
  await expect(bar).toContainText('All 200 runs matching the filter selected');
  // every row shows picked (only the visible ones are in the DOM)
  await expect(page.locator('[role="row"][data-pid]').first().getByRole('checkbox')).toBeChecked();

  await bar.getByRole('button', { name: 'Abort 200 runs…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abort 200 runs?' });
  await expect(dialog).toContainText('Open tasks stop');
  await dialog.getByRole('button', { name: 'Yes, abort 200 runs' }).click();

  const progress = page.getByRole('region', { name: 'Bulk abort' });
  await expect(progress.getByRole('progressbar', { name: 'Bulk abort progress' })).toBeVisible();
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(progress.getByRole('progressbar', { name: 'Bulk abort progress' })).toHaveAttribute('value', '200');
  await expect(progress).toContainText('200 of 200 through — 200 aborted, 0 already ended, 0 refused');
  await expect(progress.getByRole('list', { name: 'Results by run' }).getByRole('listitem')).toHaveCount(200);
  await expect(progress.locator(`li[data-pid="${pids[17]}"]`)).toHaveAttribute('data-outcome', 'done');
  // the list reads again: every run of the filter shows aborted, the selection is cleared
  await expect(page.locator('[role="row"][data-state="running"]')).toHaveCount(0);
  await expect(bar).toContainText('No run selected');

  expect((await adminApi.processes.list.query({ mid, state: 'aborted', limit: 1 })).count).toBe(200);
  expect((await adminApi.processes.list.query({ mid, limit: 1 })).count).toBe(200);
  expect((await adminApi.processes.state.query({ pid: kept })).state).toBe('running');
  const job = await progress.getAttribute('data-job');
  const audit = await adminApi.audit.query.query({ action: 'proc.bulk_abort', target: `bulk:${job}` });
  expect(audit.count).toBe(1);
  const detail = audit.rows[0].detail as { pids: string[]; counts: unknown };
  expect([...detail.pids].sort()).toEqual([...pids].sort());
  expect(detail.counts).toEqual({ done: 200, skipped: 0, refused: 0 });
});

test('an operator aborts two picked runs; the third keeps running', async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('pick');
  await deployModel(waits(mid));
  const pids = await startRuns(mid, 3, adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs?model=${mid}`);
  await page.getByRole('checkbox', { name: `Select run ${pids[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select run ${pids[2]}` }).check();
  const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
  await expect(bar).toContainText('2 runs selected');
  await bar.getByRole('button', { name: 'Abort 2 runs…' }).click();
  await page.getByRole('dialog', { name: 'Abort 2 runs?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await bar.getByRole('button', { name: 'Abort 2 runs…' }).click();
  await page.getByRole('button', { name: 'Yes, abort 2 runs' }).click();
  const progress = page.getByRole('region', { name: 'Bulk abort' });
  await expect(progress).toHaveAttribute('data-state', 'done');
  await expect(progress).toContainText('2 aborted');
  await expect(page.locator(`[role="row"][data-pid="${pids[1]}"]`)).toHaveAttribute('data-state', 'running');
  await expect(page.locator(`[role="row"][data-pid="${pids[0]}"]`)).toHaveAttribute('data-state', 'aborted');
  expect((await adminApi.processes.state.query({ pid: pids[1] })).state).toBe('running');
});

test('the failing-node filter selects the runs that failed at a node; aborting them says they already ended', async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('fails');
  await deployModel(`id: ${mid}
name: Sometimes fails
inputs: { fail: false }
steps:
  - id: s1
    acts:
      - id: boom
        uses: acts.transform.code
        params: |
          if (fail) throw new Error("the ledger is closed");
          return {};
  - id: s2
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
`);
  const failed = [(await startProcess(mid, { fail: true })).pid, (await startProcess(mid, { fail: true })).pid];
  const waiting = [(await startProcess(mid)).pid, (await startProcess(mid)).pid];
  await signInAs(['operator']);
  await page.goto(`/runs?model=${mid}`);
  await expect(page.locator('[role="row"][data-pid]')).toHaveCount(4, { timeout: 30_000 });
  await page.getByLabel('Failing node').fill('boom');
  await expect(page.locator('[role="row"][data-pid]')).toHaveCount(2);
  for (const pid of failed) await expect(page.locator(`[role="row"][data-pid="${pid}"]`)).toHaveAttribute('data-state', 'error');
  await expect(page).toHaveURL(/failing=boom/);
  const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
  await bar.getByRole('button', { name: 'Select all 2 matching' }).click();
  await bar.getByRole('button', { name: 'Abort 2 runs…' }).click();
  await page.getByRole('button', { name: 'Yes, abort 2 runs' }).click();
  const progress = page.getByRole('region', { name: 'Bulk abort' });
  await expect(progress).toHaveAttribute('data-state', 'done');
  await expect(progress).toContainText('0 aborted, 2 already ended, 0 refused');
  for (const pid of failed) await expect(progress.locator(`li[data-pid="${pid}"]`)).toContainText('already ended');
  for (const pid of waiting) expect((await adminApi.processes.state.query({ pid })).state).toBe('running');
});

test('a viewer sees the runs without checkboxes or bulk actions', async ({ page, signInAs }) => {
  const mid = uniqueName('look');
  await deployModel(waits(mid));
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs?model=${mid}`);
  await expect(page.locator(`[role="row"][data-pid="${pid}"]`)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Select run ${pid}` })).toHaveCount(0);
  await expect(page.getByRole('toolbar', { name: 'Bulk actions' })).toHaveCount(0);
});
