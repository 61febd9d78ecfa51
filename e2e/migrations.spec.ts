/**
 * Migrating running processes to a new version (issue 16 items 2–4): 50 runs wait at an approval
 * of v1; a designer deploys v2 in the designer, where the approval's step is renamed and a step is
 * added after it — the deploy dialog says how many processes still run v1 and offers to migrate
 * them; the migration dialog maps the renamed step (a check without it finds every run blocked
 * there), checks 50 ready and migrates them with a progress bar and per-run results; then the
 * operator the approval was assigned to answers it in the inbox and that run finishes on v2's path.
 */
import type { Page } from '@playwright/test';
import { screenshot, useSession } from './helpers/browser.ts';
import { deployButton, yaml } from './helpers/designer.ts';
import { createUser, deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const RUNS = 50;

function v1(id: string): string {
  return `id: ${id}
name: Orders ${id}
inputs: { n: 0, approver: nobody }
steps:
  - id: review
    name: Review
    acts:
      - { id: approve, uses: acts.core.irq, key: approve, params: { title: 'Approve order {{ n }} of ${id}', assignees: '{{ approver }}' } }
  - id: pay
    acts:
      - { uses: acts.transform.set, params: { paid: true } }
`;
}

/** v1 with the approval's step renamed (another id and name) and a step added after it. */
function v2(id: string): string {
  return `id: ${id}
name: Orders ${id}
inputs: { n: 0, approver: nobody }
steps:
  - id: manager_review
    name: Manager review
    acts:
      - { id: approve, uses: acts.core.irq, key: approve, params: { title: 'Approve order {{ n }} of ${id}', assignees: '{{ approver }}' } }
  - id: notify
    name: Notify
    acts:
      - { uses: acts.transform.set, params: { notified: true } }
  - id: pay
    acts:
      - { uses: acts.transform.set, params: { paid: true } }
`;
}

/** Replaces the designer's YAML with `text`. */
async function replaceYaml(page: Page, text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
  await expect(yaml(page)).toContainText('id: manager_review');
}

test('50 runs waiting at a renamed step are mapped, checked and migrated to v2; an answered one finishes on the new path', async ({ page, context, adminApi, signInAs }) => {
  test.setTimeout(180_000);
  const mid = uniqueName('orders');
  const operator = await createUser({ roles: ['operator'] });
  await deployModel(v1(mid));
  const pids: string[] = [];
  for (let i = 0; i < RUNS; i += 25) {
    const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => startProcess(mid, { n: i + j, approver: i + j === 7 ? operator.name : 'nobody' }, adminApi)));
    pids.push(...batch.map((b) => b.pid));
  }
  await expect.poll(async () => (await adminApi.migrations.running.query({ mid })).versions, { timeout: 30_000 }).toEqual([{ ver: 1, running: RUNS }]);

  // the deploy says what keeps running v1, and offers to migrate it
  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await replaceYaml(page, v2(mid));
  await expect(deployButton(page)).toHaveText('Deploy');
  await deployButton(page).click();
  const deploy = page.getByRole('dialog', { name: 'Deploy a new version' });
  await expect(deploy.getByTestId('running-note')).toContainText(`${RUNS} processes still run the deployed version (${RUNS} on v1)`);
  await deploy.getByLabel('Version note').fill('manager review, then notify');
  await deploy.getByRole('button', { name: 'Deploy' }).click();
  await expect(deploy.getByTestId('migrate-offer')).toContainText(`Version 2 is deployed. ${RUNS} processes still run older versions (${RUNS} on v1).`);
  await deploy.getByRole('button', { name: 'Migrate them to version 2' }).click();

  const dialog = page.getByRole('dialog', { name: `Migrate running processes of ${mid}` });
  await expect(dialog.getByLabel('From version')).toHaveValue('1');
  await expect(dialog.getByLabel('To version')).toHaveValue('2');
  await expect(dialog).toContainText(`${RUNS} processes run version 1.`);
  const mapping = dialog.getByRole('table', { name: 'Node mapping' });
  const review = mapping.locator('tr[data-node="review"]');
  await expect(review).toHaveAttribute('data-how', 'none');
  await expect(mapping.locator('tr[data-node="approve"]')).toHaveAttribute('data-how', 'same');
  await expect(dialog.getByLabel('Target of act approve')).toHaveValue('approve');

  // without the renamed step's target every run is blocked there
  await dialog.getByRole('button', { name: 'Check' }).click();
  const result = dialog.getByRole('region', { name: 'Check result' });
  await expect(result).toHaveAttribute('data-blocked', String(RUNS), { timeout: 30_000 });
  await expect(result).toContainText(`${RUNS} processes checked: 0 ready`);
  const blocked = result.locator(`li[data-pid="${pids[0]}"]`);
  await expect(blocked.getByRole('link', { name: pids[0] })).toHaveAttribute('href', `/runs/${pids[0]}`);
  await expect(blocked.locator('li[data-code="no_target"]')).toContainText("a live task is at a node the target does not have, and the plan does not cancel it: step 'review'");
  await expect(review).toContainText(`${RUNS} processes blocked here`);
  await expect(dialog.getByRole('button', { name: /^Migrate \d+/ })).toHaveCount(0);

  // mapped, all 50 are ready
  await dialog.getByLabel('Target of step review').selectOption('manager_review');
  await expect(result).toHaveCount(0);
  await expect(review).toHaveAttribute('data-how', 'chosen');
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(result).toHaveAttribute('data-ready', String(RUNS), { timeout: 30_000 });
  await expect(result).toContainText(`${RUNS} processes checked: ${RUNS} ready, 0 skipped (ended, or on the target version already), 0 blocked`);
  await screenshot(page, 'migration');

  await dialog.getByRole('button', { name: `Migrate ${RUNS} processes` }).click();
  const progress = dialog.getByRole('region', { name: 'Bulk migrate' });
  await expect(progress.getByRole('progressbar', { name: 'Bulk migrate progress' })).toBeVisible();
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(progress.getByRole('progressbar', { name: 'Bulk migrate progress' })).toHaveAttribute('value', String(RUNS));
  await expect(progress).toContainText(`${RUNS} of ${RUNS} through — ${RUNS} migrated, 0 ended, or on the target version already, 0 refused`);
  await expect(progress.locator(`li[data-pid="${pids[7]}"]`)).toHaveAttribute('data-outcome', 'done');
  expect(await adminApi.migrations.running.query({ mid })).toEqual({ mid, versions: [{ ver: 2, running: RUNS }] });
  await progress.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // the operator the approval was assigned to answers it; the run goes on v2's path
  await useSession(context, operator);
  await page.goto('/inbox');
  const task = page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: `Approve order 7 of ${mid}` });
  await task.click();
  await page.getByTestId('task-form').getByRole('button', { name: 'Approve' }).click();
  await expect.poll(async () => (await adminApi.processes.state.query({ pid: pids[7] })).state, { timeout: 15_000 }).toBe('completed');
  await page.goto(`/runs/${pids[7]}`);
  await expect(page.getByTestId('node-step:notify')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('node-step:manager_review')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('node-workflow:end')).toHaveAttribute('data-state', 'completed');
  expect((await adminApi.processes.state.query({ pid: pids[8] })).state).toBe('running');
});

test('the version history opens the migration of the two versions compared; a viewer gets no such button', async ({ page, signInAs }) => {
  const mid = uniqueName('hist');
  await deployModel(v1(mid));
  await deployModel(v2(mid));
  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await page.getByRole('button', { name: 'Versions' }).click();
  await page.getByRole('button', { name: 'Migrate running processes from v1 to v2…' }).click();
  const dialog = page.getByRole('dialog', { name: `Migrate running processes of ${mid}` });
  await expect(dialog).toContainText('0 processes run version 1.');
  await expect(dialog.getByLabel('Target of step review')).toHaveValue('');
  await expect(dialog.locator('tr[data-node="review"]')).toContainText('Live tasks here block the migration (only acts can be cancelled)');
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByRole('region', { name: 'Check result' })).toContainText('0 processes checked: 0 ready');

  await signInAs(['viewer']);
  await page.goto(`/models/${mid}`);
  await page.getByRole('button', { name: 'Versions' }).click();
  await expect(page.getByRole('dialog', { name: 'Version history' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Migrate running processes/ })).toHaveCount(0);
});

test('an approval removed in the new version: its live tasks are cancelled by the plan and the runs go on to the end', async ({ page, adminApi, signInAs }) => {
  const mid = uniqueName('drop');
  const source = (acts: string) => `id: ${mid}
steps:
  - { id: s1, acts: [ ${acts} ] }
  - { id: s2, acts: [ { id: mark, uses: acts.transform.set, params: { done: true } } ] }
`;
  await deployModel(source('{ id: approve, uses: acts.core.irq, key: approve }'));
  const pids = [(await startProcess(mid)).pid, (await startProcess(mid)).pid];
  await deployModel(source(''));
  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await page.getByRole('button', { name: 'Versions' }).click();
  await page.getByRole('button', { name: 'Migrate running processes from v1 to v2…' }).click();
  const dialog = page.getByRole('dialog', { name: `Migrate running processes of ${mid}` });
  await expect(dialog.getByLabel('Target of act approve')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Check' }).click();
  const result = dialog.getByRole('region', { name: 'Check result' });
  await expect(result).toHaveAttribute('data-blocked', '2');
  await dialog.getByLabel('Live tasks of act approve').selectOption('cancel');
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(result).toHaveAttribute('data-ready', '2');
  await dialog.getByRole('button', { name: 'Migrate 2 processes' }).click();
  await expect(dialog.getByRole('region', { name: 'Bulk migrate' })).toHaveAttribute('data-state', 'done');
  for (const pid of pids) await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
});
