/**
 * The studio's rough edges (issue 17 item 10): the new-user form ticks no role for the admin,
 * models are archived and brought back, the audit log follows new entries live, an error a
 * person sees is a sentence about their input with its code to copy, long unbroken names stay
 * inside their cards, and the designer's palette shows its items at 1280×800.
 */
import { signInApi } from './helpers/api.ts';
import { uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

test('the new-user form ticks no role: ticking viewer makes a viewer, not an operator and viewer', async ({ page, signInAs }) => {
  await signInAs('admin');
  await page.goto('/admin/users');
  const form = page.getByRole('form', { name: 'Add a user' });
  for (const role of ['admin', 'designer', 'operator', 'viewer']) await expect(form.getByLabel(role, { exact: true })).not.toBeChecked();
  const name = uniqueName('vera');
  await form.getByLabel('New user name').fill(name);
  await form.getByLabel('First password').fill('vera-first-password');
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(form.getByRole('alert')).toHaveText('Choose at least one role.');
  await form.getByLabel('viewer', { exact: true }).check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added ${name}.` })).toBeVisible();
  await expect(page.locator(`li[data-user="${name}"]`)).toContainText('viewer');
  const vera = await signInApi(name, 'vera-first-password');
  expect((await vera.api.auth.me.query()).caller?.roles).toEqual(['viewer']);
});
