/**
 * Roles on the inbox, schedules and admin pages: a viewer sees no action buttons, and the API
 * refuses the actions anyway (`auth.forbidden` with the viewer's own session).
 */
import { TRPCClientError } from '@trpc/client';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

async function codeOf(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    return err instanceof TRPCClientError ? (err.data as { code?: string } | undefined)?.code : String(err);
  }
}

test('a viewer sees no action buttons in the inbox, schedules and admin pages, and the API refuses them anyway', async ({ page, adminApi, signInAs }) => {
  const id = uniqueName('roles');
  await deployModel(`id: ${id}
name: Roles ${id}
on:
  - { id: go, uses: acts.event.manual }
  - { id: nightly, uses: acts.event.schedule, cron: '0 0 3 * * *' }
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: wait, params: { title: 'Roles check ${id}' } }
`);
  const { pid } = await startProcess(id);
  await expect.poll(async () => (await adminApi.inbox.list.query({ mid: id })).count).toBe(1);
  const tid = (await adminApi.inbox.list.query({ mid: id })).rows[0].tid;
  const viewer = await signInAs(['viewer']);

  await page.goto('/inbox');
  await expect(page.getByText('This page is not open to your roles')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  await page.goto('/schedules');
  await expect(page.locator(`tr[data-trigger="${id}:go"]`)).toBeVisible();
  await expect(page.getByRole('button', { name: /Fire .* now/ })).toHaveCount(0);
  await expect(page.getByRole('switch')).toHaveCount(0);

  await page.goto('/admin/users');
  await expect(page.getByText('This page is not open to your roles')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: /Tasks waiting for you/ })).toHaveCount(0);
  await expect(page.getByTestId('health-badge')).toBeVisible();

  const api = viewer.api;
  expect(await codeOf(api.tasks.complete.mutate({ pid, tid }))).toBe('auth.forbidden');
  expect(await codeOf(api.tasks.error.mutate({ pid, tid, options: { ecode: 'rejected' } }))).toBe('auth.forbidden');
  expect(await codeOf(api.inbox.list.query({}))).toBe('auth.forbidden');
  expect(await codeOf(api.inbox.form.query({ pid, tid }))).toBe('auth.forbidden');
  expect(await codeOf(api.triggers.fire.mutate({ id: `${id}:go` }))).toBe('auth.forbidden');
  expect(await codeOf(api.triggers.setEnabled.mutate({ id: `${id}:nightly`, enabled: false }))).toBe('auth.forbidden');
  expect(await codeOf(api.users.create.mutate({ name: uniqueName('nope'), password: 'long-enough-pw', roles: ['admin'] }))).toBe('auth.forbidden');
  expect(await codeOf(api.audit.query.query({}))).toBe('auth.forbidden');
  expect((await adminApi.tasks.get.query({ pid, tid })).task.state).toBe('interrupted');
});

test('an operator may fire a trigger but not enable or disable it; a designer the other way round', async ({ page, signInAs }) => {
  const id = uniqueName('roles2');
  await deployModel(`id: ${id}
on:
  - { id: go, uses: acts.event.manual }
steps:
  - id: s
    acts:
      - { uses: acts.core.msg, key: done }
`);
  await signInAs(['operator']);
  await page.goto('/schedules');
  const row = page.locator(`tr[data-trigger="${id}:go"]`);
  await expect(row.getByRole('button', { name: `Fire ${id}:go now` })).toBeVisible();
  await expect(row.getByRole('switch')).toHaveCount(0);

  await page.context().clearCookies();
  await signInAs(['designer']);
  await page.goto('/schedules');
  await expect(row.getByRole('switch', { name: `Enabled: ${id}:go` })).toBeVisible();
  await expect(row.getByRole('button', { name: /Fire/ })).toHaveCount(0);
});
