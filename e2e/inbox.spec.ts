/**
 * The operator inbox: tasks arrive live, a rejection errors the process, an approval completes
 * it, a task sent back comes round again, a task answered elsewhere cannot be submitted, and a
 * task assigned to someone else is not listed.
 */
import type { Page } from '@playwright/test';
import type { Api } from './helpers/api.ts';
import { screenshot } from './helpers/browser.ts';
import { createUser, deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

/** Two steps for any operator: a draft, then a review that may send it back to the draft. */
function reviewModel(id: string): string {
  return `id: ${id}
name: Purchase ${id}
inputs: { item: pen }
steps:
  - id: draft
    name: Draft
    acts:
      - uses: acts.core.irq
        key: write
        params: { title: 'Write the request for {{ item }}' }
  - id: review
    name: Review
    acts:
      - uses: acts.core.irq
        key: review
        params:
          title: 'Review the request for {{ item }}'
          description: Check the budget first.
          schema: { properties: { approved_by: { title: Approved by }, urgent: { type: boolean } } }
        outputs: { approved_by: '', urgent: false }
`;
}

let mid = '';
test.beforeAll(async () => {
  mid = (await deployModel(reviewModel(uniqueName('purchase')))).id;
});

const row = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: title });
const form = (page: Page) => page.getByTestId('task-form');

async function processState(api: Api, pid: string): Promise<string> {
  return (await api.processes.state.query({ pid })).state;
}

test('a new task arrives live; rejecting it errors the process', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  await expect(page.getByText(/tasks? waits? for you/)).toBeVisible();

  const item = uniqueName('stapler');
  const { pid } = await startProcess(mid, { item });
  await expect(row(page, `Write the request for ${item}`)).toBeVisible();
  await row(page, `Write the request for ${item}`).click();
  await expect(form(page).getByRole('heading', { name: `Write the request for ${item}` })).toBeVisible();
  await expect(form(page)).toContainText(`Purchase ${mid} · Draft`);

  await page.keyboard.press('r');
  const code = page.getByLabel('Error code');
  await expect(code).toBeFocused();
  await expect(code).toHaveValue('rejected');
  await page.getByLabel('Reason (optional)').fill('not in the budget');
  await page.getByRole('button', { name: 'Reject task' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Rejected: Write the request for ${item}` })).toBeVisible();
  await expect(row(page, `Write the request for ${item}`)).toHaveCount(0);
  await expect.poll(() => processState(adminApi, pid)).toBe('error');
});

test('approving both steps completes the process; the answer fields come from the declared outputs', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('chair');
  const { pid } = await startProcess(mid, { item });
  await row(page, `Write the request for ${item}`).focus();
  await page.keyboard.press('Enter');
  await expect(form(page).getByRole('heading', { name: `Write the request for ${item}` })).toBeVisible();
  await page.keyboard.press('a');
  await expect(page.getByRole('status').filter({ hasText: `Approved: Write the request for ${item}` })).toBeVisible();

  await row(page, `Review the request for ${item}`).click();
  await expect(form(page)).toContainText('Check the budget first.');
  await form(page).getByLabel('Approved by').fill('the operator');
  await form(page).getByLabel('urgent').check();
  await screenshot(page, 'inbox');
  await form(page).getByRole('button', { name: 'Approve' }).click();
  await expect(row(page, `Review the request for ${item}`)).toHaveCount(0);
  await expect.poll(() => processState(adminApi, pid)).toBe('completed');
  const detail = await adminApi.processes.get.query({ pid });
  expect(detail.variables).toMatchObject({ approved_by: 'the operator', urgent: true });
});

test('a review sent back to the draft comes round again and is approved the second time', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('desk');
  const { pid } = await startProcess(mid, { item });
  await row(page, `Write the request for ${item}`).click();
  await form(page).getByRole('button', { name: 'Approve' }).click();
  await row(page, `Review the request for ${item}`).click();
  await page.keyboard.press('b');
  await expect(page.getByLabel('Send back to step')).toBeFocused();
  await expect(page.getByLabel('Send back to step')).toHaveValue('draft');
  await page.getByRole('button', { name: 'Send back', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Sent back: Review the request for ${item}` })).toBeVisible();

  await row(page, `Write the request for ${item}`).click();
  await form(page).getByRole('button', { name: 'Approve' }).click();
  await row(page, `Review the request for ${item}`).click();
  await form(page).getByLabel('Approved by').fill('second look');
  await form(page).getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => processState(adminApi, pid)).toBe('completed');
  const states = (await adminApi.processes.get.query({ pid })).tasks.filter((t) => t.kind === 'act' && t.key === 'review').map((t) => t.state);
  expect(states.sort()).toEqual(['backed', 'completed']);
});

test('a task answered elsewhere while its form is open says so and cannot be submitted', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('lamp');
  const { pid } = await startProcess(mid, { item });
  await row(page, `Write the request for ${item}`).click();
  await expect(form(page).getByRole('button', { name: 'Approve' })).toBeEnabled();
  const tid = (await adminApi.inbox.list.query({ mid })).rows.find((r) => r.pid === pid)!.tid;
  await adminApi.tasks.complete.mutate({ pid, tid });
  await expect(page.getByTestId('task-closed')).toContainText('someone else answered it');
  await expect(form(page).getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(form(page).getByRole('button', { name: 'Reject…' })).toBeDisabled();
  await expect(row(page, `Write the request for ${item}`)).toHaveCount(0);
});

test("a task assigned to another user is not in this operator's inbox", async ({ page, signInAs }) => {
  const other = await createUser({ roles: ['operator'] });
  const assignedId = uniqueName('assigned');
  const { id } = await deployModel(`id: ${assignedId}
name: Assigned ${assignedId}
steps:
  - id: only
    acts:
      - { uses: acts.core.irq, key: mine, params: { title: 'For ${other.name} only', assignees: [${other.name}] } }
`);
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('visible');
  await startProcess(id);
  await startProcess(mid, { item });
  await expect(row(page, `Write the request for ${item}`)).toBeVisible();
  await expect(row(page, `For ${other.name} only`)).toHaveCount(0);
  const theirs = await other.api.inbox.list.query({ mid: id });
  expect(theirs.rows.map((r) => r.params)).toEqual([{ title: `For ${other.name} only`, assignees: [other.name] }]);
});

test('an own approval can be withdrawn while the next step has not acted', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('pen');
  const { pid } = await startProcess(mid, { item });
  await row(page, `Write the request for ${item}`).click();
  await form(page).getByRole('button', { name: 'Approve' }).click();
  await expect(row(page, `Review the request for ${item}`)).toBeVisible();
  const withdraw = page.getByRole('button', { name: `Withdraw approval of Purchase ${mid} · Draft` });
  await withdraw.click();
  await expect(row(page, `Write the request for ${item}`)).toBeVisible();
  await expect(row(page, `Review the request for ${item}`)).toHaveCount(0);
  await expect(withdraw).toHaveCount(0);
  const writes = (await adminApi.processes.get.query({ pid })).tasks.filter((t) => t.kind === 'act' && t.key === 'write').map((t) => t.state);
  expect(writes.sort()).toEqual(['completed', 'interrupted']);
});

test('a long inbox is virtualised and paged: j/k move the focus through it, Enter opens, scrolling loads the next page', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(60_000);
  const operator = await signInAs(['operator']);
  const BULK = 250;
  const bulkId = uniqueName('bulk');
  const { id } = await deployModel(`id: ${bulkId}
name: Bulk ${bulkId}
inputs: { items: [] }
steps:
  - id: fan
    acts:
      - uses: acts.core.parallel
        params:
          in: '{{ items }}'
          acts:
            - { uses: acts.core.irq, key: bulk, params: { title: 'Bulk task {{ $index }}', assignees: [${operator.name}] } }
`);
  const { pid } = await startProcess(id, { items: Array.from({ length: BULK }, (_, i) => i) });
  try {
    await expect.poll(async () => (await operator.api.inbox.list.query({ mid: id, limit: 1 })).count, { timeout: 30_000 }).toBe(BULK);
    await page.goto('/inbox');
    const count = page.getByText(/^\d+ tasks wait for you/);
    await expect(count).toBeVisible();
    const total = Number((await count.textContent())!.split(' ')[0]);
    expect(total).toBeGreaterThanOrEqual(BULK);
    const list = page.getByRole('list', { name: 'Tasks waiting for you' });
    const rendered = list.getByRole('listitem');
    await expect(rendered.first()).toBeVisible();
    expect(await rendered.count()).toBeLessThan(60);

    // j thirty times lands on the 30th task, k goes back one; the focused row is in view
    for (let i = 0; i < 30; i++) await page.keyboard.press('j');
    await expect(page.locator('li:has(> button:focus)')).toHaveAttribute('aria-posinset', '30');
    await page.keyboard.press('k');
    const focused = page.locator('li:has(> button:focus)');
    await expect(focused).toHaveAttribute('aria-posinset', '29');
    await expect(focused).toBeInViewport();
    const title = (await focused.locator('button > span').nth(1).textContent())!;
    await page.keyboard.press('Enter');
    await expect(form(page).getByRole('heading', { name: title })).toBeVisible();

    // scrolling to the end reads the next pages (200 tasks a page) until the last task is there
    const scroller = page.getByTestId('inbox-scroller');
    await expect
      .poll(async () => {
        await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return list.locator(`li[aria-posinset="${total}"]`).count();
      }, { timeout: 15_000 })
      .toBe(1);
    expect(await rendered.count()).toBeLessThan(60);
  } finally {
    await adminApi.processes.abort.mutate({ pid });
  }
});
