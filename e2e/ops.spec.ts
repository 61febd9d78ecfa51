/**
 * Operations pages: the schedules list with enable/disable and fire now, the live health page,
 * an admin creating a user and an API token, and the overview.
 */
import { screenshot } from './helpers/browser.ts';
import { BASE_URL } from './helpers/env.ts';
import { signInApi } from './helpers/api.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

test('schedules: the list shows cron, timezone and next run; a designer disables and enables; fire now starts a run', async ({ page, adminApi, signInAs }) => {
  const id = uniqueName('nightly');
  await deployModel(`id: ${id}
name: Nightly report
on:
  - { id: report, name: Nightly report, uses: acts.event.schedule, cron: '0 30 2 * * *', timezone: Europe/Berlin, params: { kind: nightly } }
  - { id: now, uses: acts.event.manual }
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: read, params: { title: 'Read the report' } }
`);
  await signInAs('admin');
  await page.goto('/schedules');
  const row = page.locator(`tr[data-trigger="${id}:report"]`);
  await expect(row).toContainText('0 30 2 * * *');
  await expect(row).toContainText('Europe/Berlin');
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^in \d+/);

  const toggle = row.getByRole('switch', { name: 'Enabled: Nightly report' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(row).toContainText('disabled');
  expect((await adminApi.triggers.get.query({ id: `${id}:report` })).enabled).toBe(false);
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect.poll(async () => (await adminApi.triggers.get.query({ id: `${id}:report` })).enabled).toBe(true);

  await row.getByRole('button', { name: 'Fire Nightly report now' }).click();
  const started = row.getByRole('status').filter({ hasText: 'Started' });
  await expect(started).toBeVisible();
  const pid = (await started.getByRole('link').textContent())!;
  expect((await adminApi.processes.get.query({ pid })).variables).toMatchObject({ kind: 'nightly' });
  await screenshot(page, 'schedules');
});

test('health: the page shows live figures that update by themselves', async ({ page, signInAs }) => {
  await signInAs(['viewer']);
  await page.goto('/health');
  await expect(page.getByTestId('metric-queue-depth')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('metric-store-writer')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('metric-delivery-backlog')).toHaveText(/^\d+$/);
  // the server recovered its (few) unfinished processes in the background before it was ready
  await expect(page.getByTestId('metric-recovery')).toHaveText('Done');
  await expect(page.getByRole('region', { name: 'Recovery' })).toHaveAttribute('data-tone', 'ok');
  await expect(page.getByRole('table', { name: 'Timer loops' })).toContainText('schedule-trigger');
  await expect(page.getByRole('table', { name: 'Timer loops' })).toContainText('message-retry');
  // the read and the join's catch-up give up to two samples; the health room adds one every 5 s without a reload
  await expect(page.getByTestId('health-updated')).toContainText(/^([3-9]|\d{2,}) samples/, { timeout: 12_000 });
  await expect(page.getByRole('img', { name: /Queue depth: last \d+, highest \d+ over ([3-9]|\d{2,}) samples/ })).toBeVisible();
  await screenshot(page, 'health');
});

test('admin: creates a user who can sign in, and an API token whose secret is shown once and works', async ({ page, signInAs }) => {
  await signInAs('admin');
  await page.goto('/admin/users');
  const name = uniqueName('carol');
  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('New user name').fill(name);
  await form.getByLabel('First password').fill('carol-first-password');
  await form.getByLabel('designer').check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added ${name}.` })).toBeVisible();
  const user = page.locator(`li[data-user="${name}"]`);
  await expect(user).toContainText('designer');
  const carol = await signInApi(name, 'carol-first-password');
  expect((await carol.api.auth.me.query()).caller?.roles).toEqual(['designer']);

  await user.getByRole('button', { name: `Disable ${name}` }).click();
  await expect(user).toContainText('Disabled');
  await user.getByRole('button', { name: `Enable ${name}` }).click();
  await expect(user).toContainText('Active');

  const tokenName = uniqueName('laptop');
  await page.getByLabel('Token name').fill(tokenName);
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = (await page.getByTestId('token-secret').textContent())!;
  expect(secret.length).toBeGreaterThan(20);
  await expect(page.locator(`li[data-token="${tokenName}"]`)).toContainText('never used');
  const me = await fetch(`${BASE_URL}/api/trpc/auth.me`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.json());
  expect(me.result.data.caller.name).toBe('admin');

  await page.getByLabel('Action').fill('user.create');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('table', { name: 'Audit entries' })).toContainText(name);
  await screenshot(page, 'admin-users', { fullPage: true });

  await page.getByRole('button', { name: 'I copied it' }).click();
  await expect(page.getByTestId('token-secret')).toHaveCount(0);
  await page.getByRole('button', { name: `Revoke token ${tokenName}` }).click();
  await expect(page.locator(`li[data-token="${tokenName}"]`)).toHaveCount(0);
  const after = await fetch(`${BASE_URL}/api/trpc/auth.me`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.json());
  expect(after.result?.data?.caller ?? null).toBeNull();
});

test('overview: runs by state, tasks waiting for me, failing schedules and the health badge', async ({ page, adminApi, signInAs }) => {
  const id = uniqueName('overview');
  await deployModel(`id: ${id}
name: Overview ${id}
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: wait, params: { title: 'Look at the overview ${id}' } }
`);
  const { pid } = await startProcess(id);
  await expect.poll(async () => (await adminApi.inbox.list.query({ mid: id })).count).toBe(1);
  await signInAs(['operator']);
  await page.goto('/');
  await expect(page.getByTestId('runs-running')).toHaveText(/^[1-9]\d*$/);
  await expect(page.getByRole('link', { name: `Look at the overview ${id}` })).toBeVisible();
  await expect(page.getByTestId('health-badge')).toContainText(/Healthy|Busy|Degraded/);
  await expect(page.getByRole('heading', { name: /Failing schedules/ })).toBeVisible();
  await screenshot(page, 'overview');
  await adminApi.processes.abort.mutate({ pid });
  await expect(page.getByRole('link', { name: `Look at the overview ${id}` })).toHaveCount(0);
});
