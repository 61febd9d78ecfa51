/**
 * Operators decide informed (issue 17 item 6): the inbox form marks required answers and will not
 * send them empty or blank (the server would refuse them too); it shows the run's start inputs and
 * the variables visible at the task (a long value cut, with its size) and links to the run page;
 * an approval that can still be withdrawn shows what was approved.
 */
import type { Page } from '@playwright/test';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function expenseModel(id: string): string {
  return `id: ${id}
name: Expense ${id}
inputs: { amount: 120, requester: alice, attachment: '' }
steps:
  - id: prepare
    name: Prepare
    acts:
      - { uses: acts.transform.set, params: { cost_center: CC-42 } }
  - id: manager
    name: Manager approval
    acts:
      - uses: acts.core.irq
        key: approve
        params:
          title: 'Approve {{ amount }} for {{ requester }}?'
          schema: { required: [ approved_by ], properties: { approved_by: { title: Approved by }, note: { title: Note } } }
        outputs: { approved_by: null, note: '' }
`;
}

/** Two approvals: the first stays withdrawable while the second has not acted. */
function twoStepModel(id: string): string {
  return `id: ${id}
name: Order ${id}
inputs: { item: desk }
steps:
  - id: buyer
    name: Buyer
    acts:
      - { uses: acts.core.irq, key: buy, params: { title: 'Buy a {{ item }}?', schema: { required: [ supplier ] } }, outputs: { supplier: null, price: 0 } }
  - id: finance
    name: Finance
    acts:
      - { uses: acts.core.irq, key: pay, params: { title: 'Pay for the {{ item }}?' } }
`;
}

let mid = '';
let twoStep = '';
test.beforeAll(async () => {
  mid = (await deployModel(expenseModel(uniqueName('expense')))).id;
  twoStep = (await deployModel(twoStepModel(uniqueName('order')))).id;
});

const row = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: title });
const form = (page: Page) => page.getByTestId('task-form');

test('a required answer is marked and not sent empty or blank; filled in, the approval goes through', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const requester = uniqueName('dora');
  const { pid } = await startProcess(mid, { requester });
  const title = `Approve 120 for ${requester}?`;
  await row(page, title).click();
  await expect(form(page).getByRole('heading', { name: title })).toBeVisible();

  const approvedBy = form(page).getByLabel('Approved by');
  await expect(approvedBy).toHaveAttribute('aria-required', 'true');
  await expect(form(page).getByLabel('Note')).not.toHaveAttribute('aria-required', 'true');
  await expect(form(page)).toContainText('Fields marked * are required.');

  const alert = form(page).getByRole('alert');
  for (const text of ['', '   ']) {
    await approvedBy.fill(text);
    await form(page).getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(alert).toHaveText('Fill in Approved by: it is required (not empty, not just spaces).');
    await expect(approvedBy).toHaveAttribute('aria-invalid', 'true');
    await expect(approvedBy).toBeFocused();
  }
  await expect(row(page, title)).toHaveCount(1);
  const waiting = (await adminApi.processes.get.query({ pid })).tasks.filter((t) => t.key === 'approve');
  expect(waiting.map((t) => t.state)).toEqual(['interrupted']);

  await approvedBy.fill('bob');
  await form(page).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Approved: ${title}` })).toBeVisible();
  await expect(row(page, title)).toHaveCount(0);
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  expect((await adminApi.processes.get.query({ pid })).variables).toMatchObject({ approved_by: 'bob' });
});

test('the task shows the run inputs and the variables at the task, a long value cut, and links to the run', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const requester = uniqueName('emil');
  const { pid } = await startProcess(mid, { amount: 75, requester, attachment: 'scan '.repeat(1000) });
  const title = `Approve 75 for ${requester}?`;
  await row(page, title).click();
  await expect(form(page).getByRole('heading', { name: title })).toBeVisible();

  const context = form(page).getByRole('region', { name: 'Run context' });
  const inputs = context.getByLabel('Run inputs');
  await expect(inputs.getByRole('term')).toHaveText(['amount', 'requester', 'attachment']);
  await expect(inputs.getByRole('definition')).toHaveText([
    '75',
    requester,
    /^"scan scan .*… \(cut: 5 KiB in all; the run page shows it whole\)$/,
  ]);
  const variables = context.getByLabel('Variables');
  await expect(variables.getByRole('term')).toHaveText(['cost_center']);
  await expect(variables.getByRole('definition')).toHaveText(['CC-42']);

  await context.getByRole('link', { name: 'Open the run' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${pid}$`));
  await adminApi.processes.abort.mutate({ pid }); // the suite's later specs share this inbox
});

test('a withdrawable approval shows what was approved: the task and the answer given', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  await page.goto('/inbox');
  const item = uniqueName('lamp');
  const { pid } = await startProcess(twoStep, { item });
  await row(page, `Buy a ${item}?`).click();
  await form(page).getByLabel('supplier').fill('Lampen Müller');
  await form(page).getByLabel('price').fill('89.5');
  await form(page).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(row(page, `Pay for the ${item}?`)).toBeVisible();

  const label = `Order ${twoStep} · Buyer`;
  await expect(page.getByLabel(`What you approved in ${label}`)).toHaveText(`Buy a ${item}? · supplier: Lampen Müller · price: 89.5`);
  await page.getByRole('button', { name: `Withdraw approval of ${label}` }).click();
  await expect(row(page, `Buy a ${item}?`)).toBeVisible();
  await adminApi.processes.abort.mutate({ pid }); // the suite's later specs share this inbox
});
