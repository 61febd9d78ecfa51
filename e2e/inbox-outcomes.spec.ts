/**
 * A rejection is not a failure (issue 17 item 5): an interrupt act that declares outcomes shows
 * them as buttons in the inbox instead of Approve / Reject…; choosing an outcome whose ecode no
 * catch takes ends the run on that outcome — "Ended: reject" in the runs list and on the run
 * page, not red, and the overview counts it under completed, not under errors.
 */
import type { Page } from '@playwright/test';
import { screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function purchaseModel(id: string): string {
  return `id: ${id}
name: Purchase ${id}
inputs: { item: chair }
steps:
  - id: review
    name: Review
    acts:
      - uses: acts.core.irq
        id: review_act
        key: review
        params:
          title: 'Buy a {{ item }}?'
          outcomes:
            approve: { label: Approve }
            reject: { label: Reject, ecode: rejected }
            needs_changes: { label: Needs changes, ecode: changes }
  - id: order
    name: Order
    acts:
      - { uses: acts.core.irq, key: order, params: { title: 'Order the {{ item }}' } }
`;
}

const row = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: title });
const form = (page: Page) => page.getByTestId('task-form');

async function overviewCounts(page: Page) {
  await page.goto('/');
  const count = async (id: string) => {
    const cell = page.getByTestId(id);
    await expect(cell).toHaveText(/^\d+$/, { timeout: 20_000 }); // the counts load after the page
    return Number(await cell.textContent());
  };
  return { error: await count('runs-error'), completed: await count('runs-completed'), outcome: await count('runs-outcome') };
}

let mid = '';
test.beforeAll(async () => {
  mid = (await deployModel(purchaseModel(uniqueName('purchase')))).id;
});

test('declared outcomes are buttons; a rejection nobody catches ends the run on it, not in error', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(90_000); // four pages on a shared, loaded machine
  await signInAs(['operator', 'viewer']);
  const before = await overviewCounts(page);

  await page.goto('/inbox');
  const item = uniqueName('desk');
  const { pid } = await startProcess(mid, { item });
  const title = `Buy a ${item}?`;
  await row(page, title).click();
  await expect(form(page).getByRole('heading', { name: title })).toBeVisible();
  const decision = form(page).getByRole('group', { name: 'Decision' });
  await expect(decision.getByRole('button')).toHaveText(['Approve', 'Reject', 'Needs changes', 'Send back…', 'Skip']);

  await decision.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Answered: ${title}` })).toBeVisible();
  await expect(row(page, title)).toHaveCount(0);
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  expect((await adminApi.processes.get.query({ pid })).process).toMatchObject({ state: 'completed', outcome: 'reject', err: null });

  await page.goto(`/runs/${pid}`);
  await expect(page.getByTestId('run-state')).toHaveText('Ended: reject', { timeout: 20_000 });
  await expect(page.getByTestId('run-state').locator('[data-state]')).toHaveAttribute('data-state', 'completed');
  // the rejected act is drawn as the answer it got, not as a failure
  const answered = page.getByTestId('node-act:review_act');
  await expect(answered).toHaveAttribute('data-state', 'outcome:reject');
  await expect(answered).toContainText('Answered: reject');
  await expect(page.getByTestId('run-graph').locator('[data-state="error"]')).toHaveCount(0);

  await page.goto(`/runs?state=completed&model=${encodeURIComponent(mid)}`);
  const listed = page.locator(`[role="row"][data-pid="${pid}"]`);
  await expect(listed).toHaveAttribute('data-outcome', 'reject', { timeout: 20_000 });
  await expect(listed.getByRole('cell').first()).toHaveText('Ended: reject');
  // the state filter offers the runs that ended on an outcome, kept in the URL
  await page.goto(`/runs?model=${encodeURIComponent(mid)}`);
  await page.getByRole('search', { name: 'Filter runs' }).getByLabel('State').selectOption({ label: 'ended on an outcome' });
  await expect(page).toHaveURL(/[?&]state=outcome(&|$)/);
  await expect(listed).toBeVisible();
  await expect(page.locator('[role="row"][data-pid]:not([data-outcome])')).toHaveCount(0);

  const after = await overviewCounts(page);
  expect(after.error).toBe(before.error);
  expect(after.outcome).toBe(before.outcome + 1);
  expect(after.completed).toBe(before.completed + 1);
});

test('an outcome that completes the act goes on with the flow; a task without outcomes keeps Approve and Reject…', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('lamp');
  const { pid } = await startProcess(mid, { item });
  await row(page, `Buy a ${item}?`).click();
  await form(page).getByRole('group', { name: 'Decision' }).getByRole('button', { name: 'Approve', exact: true }).click();

  await row(page, `Order the ${item}`).click();
  await expect(form(page).getByRole('heading', { name: `Order the ${item}` })).toBeVisible();
  await expect(form(page).getByRole('group', { name: 'Decision' }).getByRole('button')).toHaveText(['Approve', 'Reject…', 'Send back…', 'Skip']);
  expect((await adminApi.processes.get.query({ pid })).variables).toMatchObject({ outcome: 'approve' });
  await adminApi.processes.abort.mutate({ pid }); // the suite's later specs share this inbox
});

test("the designer's property panel edits an interrupt's params as a form, its outcomes included", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await page.getByTestId('node-act:review_act').click();
  const properties = page.getByRole('form', { name: /^Properties of/ });
  await expect(properties.getByLabel('Title', { exact: true })).toHaveValue('Buy a {{ item }}?');
  // each outcome is a group of fields, not YAML
  const approve = properties.getByRole('group', { name: 'Outcome approve' });
  await expect(approve.getByLabel('Button label', { exact: true })).toHaveValue('Approve');
  await expect(approve.getByLabel('Error code', { exact: true })).toHaveValue('');
  const reject = properties.getByRole('group', { name: 'Outcome reject' });
  await expect(reject.getByLabel('Error code', { exact: true })).toHaveValue('rejected');
  // one more: added; a name in use is refused with a sentence; named, labelled
  await properties.getByRole('button', { name: 'Add outcome' }).click();
  const added = properties.getByRole('group', { name: 'Outcome outcome_1' });
  const name = added.getByLabel('Outcome name', { exact: true });
  await name.fill('reject');
  await name.press('Enter');
  await expect(added.getByText("An outcome named 'reject' exists already: choose another name")).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('escalate');
  await name.press('Enter');
  const escalate = properties.getByRole('group', { name: 'Outcome escalate' });
  await escalate.getByLabel('Button label', { exact: true }).fill('Ask the director');
  await escalate.getByLabel('Button label', { exact: true }).press('Enter');
  await expect(page.getByTestId('yaml-editor')).toContainText('escalate:');
  await expect(page.getByTestId('yaml-editor')).toContainText('label: Ask the director');
  await expect(page.getByTestId('deploy-button')).toHaveText('Deploy');
  await screenshot(page, 'designer-outcomes');
  await reject.getByRole('button', { name: 'Remove reject' }).click();
  await expect(page.getByTestId('yaml-editor')).not.toContainText('ecode: rejected');
});
