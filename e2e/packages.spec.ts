/** The Packages page (issue 13 item 6): every act package with its kind; designers declare external packages (run by remote workers), bad input said where it is; viewers only read. A run's external act says it waits for a worker. */
import { adminSession } from './helpers/api.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

test('a designer declares an external package: a schema that is not JSON and a bad name are refused in words, a good one is listed as external', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/packages');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Packages');
  await expect(page.locator('[data-package="acts.core.irq"]')).toContainText('Built in');
  const form = page.getByRole('form', { name: 'Declare an external package' });
  const schema = form.getByLabel('Params schema (JSON)');
  await form.getByLabel('Package name').fill('ext.thumbnail');
  await schema.fill('{ not json');
  await form.getByRole('button', { name: 'Declare package' }).click();
  await expect(form.getByRole('alert')).toContainText('The schema is not JSON');
  await schema.fill('{ "type": "object", "properties": { "size": { "type": "number" } } }');
  await form.getByLabel('Package name').fill('Thumbnail Maker');
  await form.getByRole('button', { name: 'Declare package' }).click();
  await expect(form).toContainText('dotted lowercase words');
  await form.getByLabel('Package name').fill('ext.thumbnail');
  await form.getByLabel('Description').fill('Makes a thumbnail');
  await form.getByRole('button', { name: 'Declare package' }).click();
  await expect(form.getByRole('status')).toContainText('Declared ext.thumbnail');
  const row = page.locator('[data-package="ext.thumbnail"]');
  await expect(row).toContainText('External (remote workers)');
  await expect(row).toContainText('Makes a thumbnail');
});

test('a viewer sees the packages but no form to declare one', async ({ page, signInAs }) => {
  await signInAs(['viewer']);
  await page.goto('/packages');
  await expect(page.locator('[data-package="acts.core.http"]')).toContainText('Built in');
  await expect(page.getByRole('form', { name: 'Declare an external package' })).toHaveCount(0);
});

test("a run's external act says it waits for a worker, not for a person", async ({ page, signInAs }) => {
  const { api } = await adminSession();
  await api.packages.register.mutate({ name: 'ext.e2e-wait', schema: { type: 'object' } });
  const mid = uniqueName('ext-run');
  await deployModel(`id: ${mid}\nsteps:\n  - id: s1\n    acts:\n      - { id: resize, uses: ext.e2e-wait, params: {} }\n`);
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  const node = page.getByTestId('node-act:resize');
  await expect(node).toContainText('Waiting for a worker');
  await expect(node).not.toContainText('Waiting for a person');
  await expect(page.getByTestId('run-timeline').locator('button[data-state="interrupted:worker"]')).toContainText('Waiting for a worker');
  await expect(page.getByTestId('run-timeline')).not.toContainText('Waiting for a person');
  await node.click();
  await expect(page.getByTestId('task-details')).toContainText('Waiting for a worker');
});
