/** The designer: building a workflow from the palette, validation on the node, deploy, YAML edits, versions and diff; a schedule's cron edited in the property panel; roles; screenshots (the 200-node timings are in big-models.spec.ts). */
import { chooseTheme, screenshot } from './helpers/browser.ts';
import { deployModel, uniqueName } from './helpers/scene.ts';
import { deployButton, node, setProperty, yaml } from './helpers/designer.ts';
import { expect, test } from './helpers/test.ts';

test('a designer builds a two-step approval from the palette, fixes a problem, deploys, edits the YAML and diffs two versions', async ({ page, signInAs }) => {
  test.setTimeout(60_000);
  await signInAs(['designer', 'operator']);
  const id = uniqueName('approval');
  await page.goto('/models');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await expect(page).toHaveURL(/\/models\/new\?draft=\w+$/);

  await node(page, 'workflow').click();
  await setProperty(page, 'Id', id);
  await setProperty(page, 'Name', 'Two-step approval');
  await expect(yaml(page)).toContainText(`id: ${id}`);

  await page.getByRole('button', { name: 'Add step' }).click();
  await setProperty(page, 'Id', 'manager');
  await setProperty(page, 'Name', 'Manager approval');
  await page.locator('[data-package="acts.core.irq"]').dragTo(node(page, 'step:manager'));
  await expect(node(page, 'act:irq_1')).toBeVisible();

  await page.getByRole('button', { name: 'Add step' }).click();
  await setProperty(page, 'Id', 'director');
  await setProperty(page, 'Name', 'Director approval');
  await page.getByRole('button', { name: 'Add acts.core.irq to Director approval' }).click();
  await expect(node(page, 'act:irq_2')).toBeVisible();
  await setProperty(page, 'Name', 'Director decides');
  await expect(node(page, 'act:irq_2')).toContainText('Director decides');
  for (const line of ['- id: manager', 'name: Manager approval', '- id: director', 'uses: acts.core.irq', 'name: Director decides']) await expect(yaml(page)).toContainText(line);
  await expect(deployButton(page)).toHaveText('Deploy');

  await node(page, 'step:manager').click();
  await setProperty(page, 'Next step', 'nowhere');
  await expect(node(page, 'step:manager').getByTestId('node-problem')).toHaveAttribute('aria-label', /^1 problem: .*no step 'nowhere'/);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(deployButton(page)).toHaveText('Deploy (1 problem)');
  await expect(deployButton(page)).toBeDisabled();
  await setProperty(page, 'Next step', '');
  await expect(node(page, 'step:manager').getByTestId('node-problem')).toHaveCount(0);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  await expect(deployButton(page)).toBeEnabled();

  await deployButton(page).click();
  await page.getByLabel('Version note').fill('first version');
  await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${id}$`));
  await expect(page.getByText(`${id} · deployed v1`)).toBeVisible();

  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('  - id: archive\n    name: Archive\n');
  await expect(node(page, 'step:archive')).toBeVisible();
  await expect(deployButton(page)).toHaveText('Deploy');
  await page.locator('.cm-content').press('Control+s');
  await page.getByLabel('Version note').fill('archive step');
  await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText(`${id} · deployed v2`)).toBeVisible();

  await page.getByRole('button', { name: 'Versions' }).click();
  await expect(page.getByRole('dialog').getByText('archive step')).toBeVisible();
  const diff = page.getByTestId('version-diff');
  await expect(diff.locator('[data-op="add"] [data-line]')).toHaveText(['  - id: archive', '    name: Archive']);
  await expect(diff.locator('[data-op="del"]')).toHaveCount(0);
});

test("a schedule trigger's cron and timezone are edited in the property panel: a bad cron is told in a sentence, the deployed trigger runs the new one", async ({ page, adminApi, signInAs }) => {
  test.setTimeout(60_000);
  await signInAs(['designer']);
  const id = uniqueName('nightly');
  await deployModel(`id: ${id}\non:\n  - { id: nightly, uses: acts.event.schedule, cron: '0 0 3 * * *', params: { kind: report } }\nsteps: [ { id: s1 } ]\n`);
  await page.goto(`/models/${id}`);
  await node(page, 'trigger:nightly').click();
  const panel = page.getByRole('form', { name: /^Properties of/ });
  await expect(panel.getByLabel('Cron', { exact: true })).toHaveValue('0 0 3 * * *');

  await setProperty(page, 'Cron', '61 */20 * * * *');
  await expect(panel.getByText(/the seconds field '61' of '61 \*\/20 \* \* \* \*' is not valid: write 0–59 as a value/)).toBeVisible();
  await expect(panel.getByLabel('Cron', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(deployButton(page)).toHaveText('Deploy (1 problem)');
  await screenshot(page, 'designer-schedule-cron');

  await setProperty(page, 'Cron', '0 */20 * * * *');
  await setProperty(page, 'Timezone', 'Europe/Paris');
  await expect(yaml(page)).toContainText("cron: '0 */20 * * * *'");
  await expect(yaml(page)).toContainText('timezone: Europe/Paris');
  await expect(panel.getByLabel('Cron', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(deployButton(page)).toHaveText('Deploy');

  await deployButton(page).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText(`${id} · deployed v2`)).toBeVisible();
  const trigger = await adminApi.triggers.get.query({ id: `${id}:nightly` });
  expect({ cron: trigger.cron, timezone: trigger.timezone, params: trigger.params }).toEqual({ cron: '0 */20 * * * *', timezone: 'Europe/Paris', params: { kind: 'report' } });
});

test('undo and redo walk the history of edits; Delete removes the selected node', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(node(page, 'step:step_1')).toBeVisible();
  await page.getByRole('button', { name: 'Add acts.core.msg to step_1' }).click();
  await expect(node(page, 'act:msg_1')).toBeVisible();
  await node(page, 'act:msg_1').click();
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(node(page, 'act:msg_2')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(node(page, 'act:msg_2')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(node(page, 'act:msg_2')).toBeVisible();
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(node(page, 'act:msg_2')).toHaveCount(0);
});

test('a YAML syntax error keeps the last good graph greyed out with the error shown', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('  - { id: broken\n');
  await expect(page.getByRole('alert').filter({ hasText: 'syntax error' })).toBeVisible();
  await expect(node(page, 'step:step_1')).toBeVisible();
  await expect(deployButton(page)).toBeDisabled();
});

test('a viewer sees the graph but no deploy button, and the API refuses a deploy', async ({ page, signInAs }) => {
  const { id } = await deployModel({ example: 'approval-chain.yml' });
  const viewer = await signInAs(['viewer']);
  await page.goto(`/models/${id}`);
  await expect(node(page, 'step:manager')).toBeVisible();
  await expect(deployButton(page)).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Palette' })).toHaveCount(0);
  const refused = await viewer.api.models.deploy.mutate({ source: 'id: x\n' }).then(() => null, (err: { data?: { code?: string }; message: string }) => err);
  expect(refused).not.toBeNull();
});

test('screenshots of the designer in light and dark', async ({ page, context, signInAs }) => {
  await signInAs(['designer', 'operator']);
  const { id } = await deployModel({ example: 'catches.yml' });
  for (const theme of ['light', 'dark'] as const) {
    await chooseTheme(context, theme);
    await page.goto(`/models/${id}`);
    await expect(page.locator('.react-flow__node').first()).toBeVisible();
    await page.locator('.react-flow__node').nth(2).click();
    await page.waitForTimeout(300);
    await screenshot(page, theme === 'light' ? 'designer' : 'designer-dark');
  }
});
