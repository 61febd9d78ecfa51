/**
 * Step tests in the designer (issue 14, item 2): pin an earlier run's data of a step, run just that
 * step, see the result on the node, save it as a test case and run the Tests panel; answer an
 * interrupt from the Test panel; a viewer sees no Test panel.
 */
import { expect as apiExpect } from '@playwright/test';
import { screenshot } from './helpers/browser.ts';
import { deployButton, node, yaml } from './helpers/designer.ts';
import { expect, test } from './helpers/test.ts';

/** How long one step test may take to show its result here. */
const RUN_MS = 30_000;

const modelOf = (id: string) => `id: ${id}
name: Step test order
inputs: { price: 1, qty: 1 }
steps:
  - id: compute
    outputs: { total: null }
    acts:
      - id: multiply
        uses: acts.transform.code
        params: |
          return { total: price * qty };
  - id: approve
    acts:
      - id: ask
        uses: acts.core.irq
        params: { title: 'Approve {{ total }}?', schema: { required: [ approved_by ] } }
        outputs: { approved_by: null }
`;

test('pin a run of a step, run it alone, save the case and run the saved tests; answer an interrupt from the panel', async ({ page, adminApi, signInAs }) => {
  // five runs on fresh engines, each starting a code-worker thread on a machine shared with other builds
  test.setTimeout(180_000);
  const mid = `st-e2e-${Date.now().toString(36)}`;
  await adminApi.models.deploy.mutate({ source: modelOf(mid) });
  const { pid } = await adminApi.processes.start.mutate({ mid, inputs: { price: 6, qty: 7 } });
  await apiExpect
    .poll(async () => (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.nid === 'compute')?.state, { timeout: 15_000 })
    .toBe('completed');

  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await node(page, 'step:compute').click();
  const panel = page.getByRole('region', { name: 'Step test' });
  await expect(panel).toBeVisible();

  // pinned from the run: the variables the step saw there
  const pin = panel.getByLabel('Pin data from a run');
  await expect(pin.locator('option')).toHaveCount(2);
  await pin.selectOption({ index: 1 });
  await expect(panel.getByLabel('Inputs (YAML)')).toHaveValue(/price: 6/);
  await expect(panel.getByLabel('Inputs (YAML)')).toHaveValue(/qty: 7/);

  await panel.getByRole('button', { name: 'Run step test' }).click();
  await expect(panel.getByTestId('step-test-end')).toContainText('completed', { timeout: RUN_MS });
  await expect(panel.getByTestId('step-test-outputs')).toContainText('total: 42');
  await panel.getByText('4 messages').click();
  await expect(panel.getByRole('listitem').filter({ hasText: 'step compute completed' })).toContainText('→ { total: 42 }');
  const badge = page.locator('[data-testid="test-badge"][data-node="step:compute"]');
  await expect(badge).toHaveAttribute('data-tone', 'pass');

  await panel.getByLabel('Test case name').fill('pinned compute');
  await panel.getByRole('button', { name: 'Save as test case' }).click();
  await expect(yaml(page)).toContainText('tests:');
  await expect(yaml(page)).toContainText('name: pinned compute, node: compute');
  await expect(yaml(page)).toContainText('expect: { outputs: { total: 42 } }');

  const tests = page.getByRole('region', { name: 'Tests' });
  await expect(tests.getByTestId('test-case-name')).toHaveText(['pinned compute']);
  await tests.getByRole('button', { name: 'Run all tests' }).click();
  await expect(tests.getByTestId('test-verdict')).toHaveText('passed', { timeout: RUN_MS });
  await expect(tests.getByRole('status')).toHaveText('All 1 passed');
  await expect(badge).toContainText('1 test passed');
  await screenshot(page, 'step-tests');

  // an interrupt inside is answered from the same panel
  await node(page, 'act:ask').click();
  const actPanel = page.getByRole('region', { name: 'Step test' });
  await actPanel.getByLabel('Inputs (YAML)').fill('{ total: 5 }');
  await actPanel.getByRole('button', { name: 'Run step test' }).click();
  await expect(actPanel.getByTestId('step-test-end')).toContainText('waiting', { timeout: RUN_MS });
  const answer = actPanel.getByRole('form', { name: 'Answer ask' });
  await expect(answer).toContainText('Approve 5?');
  await answer.getByLabel('Options (YAML)').fill('{ approved_by: bob }');
  await answer.getByRole('button', { name: 'Answer and run again' }).click();
  await expect(actPanel.getByTestId('step-test-end')).toContainText('completed', { timeout: RUN_MS });
  await expect(actPanel.getByTestId('step-test-outputs')).toContainText('approved_by: bob');
  await expect(page.locator('[data-testid="test-badge"][data-node="act:ask"]')).toHaveAttribute('data-tone', 'pass');

  // a failing saved case: Run all marks its node failed, and a deploy that requires the tests is refused
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('  - { name: wrong total, node: compute, inputs: { price: 1, qty: 1 }, expect: { outputs: { total: 3 } } }\n');
  await expect(tests.getByTestId('test-case-name')).toHaveText(['pinned compute', 'wrong total']);
  await tests.getByRole('button', { name: 'Run all tests' }).click();
  await expect(tests.getByRole('status')).toHaveText('1 of 2 failed', { timeout: RUN_MS });
  await expect(tests).toContainText("wrong total: output 'total' is 1, expected 3");
  await expect(badge).toHaveAttribute('data-tone', 'fail');
  await deployButton(page).click();
  await page.getByLabel('Only if the saved step tests pass').check();
  await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByRole('dialog')).toContainText("1 saved step test failed ('wrong total')", { timeout: RUN_MS });
  await expect(page.getByText(`${mid} · deployed v1`)).toBeVisible();
});

test('a viewer sees no Test panel', async ({ page, adminApi, signInAs }) => {
  const mid = `st-e2e-view-${Date.now().toString(36)}`;
  await adminApi.models.deploy.mutate({ source: modelOf(mid) });
  await signInAs(['viewer']);
  await page.goto(`/models/${mid}`);
  await node(page, 'step:compute').click();
  await expect(page.getByRole('region', { name: 'Tests' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Step test' })).toHaveCount(0);
});
