/**
 * Secrets in the studio: an admin adds a secret on the Secrets page (the value never shows again,
 * not in the page's HTML either), replaces it from its row and deletes it after a confirmation;
 * a run whose interrupt's title reads the secret shows `***` in the act's params on the run page.
 * Other roles do not get the page. The e2e server runs with an ACTS_SECRETS_KEY (playwright.config.ts).
 */
import crypto from 'node:crypto';
import { screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const VALUE = `e2e-${crypto.randomBytes(12).toString('hex')}`;

test('an admin adds, replaces and deletes a secret; the value never shows', async ({ page, signInAs }) => {
  const name = uniqueName('E2E').toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  await signInAs('admin');
  await page.goto('/admin/secrets');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Secrets');
  const form = page.getByRole('form', { name: 'Add or replace a secret' });
  await form.getByLabel('Secret name').fill(name);
  await form.getByLabel('Value').fill(VALUE);
  await form.getByRole('button', { name: 'Save secret' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added ${name}.` })).toBeVisible();
  const row = page.locator(`[data-secret="${name}"]`);
  await expect(row).toContainText('set by admin');
  await expect(form.getByLabel('Value')).toHaveValue('');
  await screenshot(page, 'secrets');

  await row.getByRole('button', { name: `Replace secret ${name}` }).click();
  await expect(form.getByLabel('Secret name')).toHaveValue(name);
  await expect(form.getByLabel('Value')).toBeFocused();
  await form.getByLabel('Value').fill(`${VALUE}-2`);
  await form.getByRole('button', { name: 'Save secret' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Replaced the value of ${name}.` })).toBeVisible();
  expect(await page.content()).not.toContain(VALUE);

  await row.getByRole('button', { name: `Delete secret ${name}` }).click();
  await row.getByRole('button', { name: `Confirm deleting secret ${name}` }).click();
  await expect(row).toHaveCount(0);
});

test('the run page shows *** where an act reads a secret', async ({ page, adminApi, signInAs }) => {
  await adminApi.secrets.set.mutate({ name: 'E2E_RUN_TOKEN', value: VALUE });
  const mid = uniqueName('secret-run');
  await deployModel(`id: ${mid}\nsteps:\n  - id: s1\n    acts:\n      - { id: ask, uses: acts.core.irq, key: ask, params: { title: 'Token {{ secrets.E2E_RUN_TOKEN }}' } }\n`);
  const { pid } = await startProcess(mid);
  await signInAs(['viewer']);
  await page.goto(`/runs/${pid}`);
  await expect(page.getByTestId('node-act:ask')).toHaveAttribute('data-state', 'interrupted');
  await page.getByTestId('node-act:ask').click();
  await expect(page.getByTestId('task-details')).toContainText('Token ***');
  expect(await page.content()).not.toContain(VALUE);
});

test('other roles do not get the page', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/admin/secrets');
  await expect(page.getByText('This page is not open to your roles')).toBeVisible();
});
