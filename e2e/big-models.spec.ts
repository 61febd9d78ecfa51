/**
 * Big models (issue: the studio's first hour, item 2): a 2,500-step sequential model (5,002
 * nodes) opens in the designer and its run opens on the run page — from 1,000 steps on, both
 * failed with "Maximum call stack size exceeded" (dagre's depth-first recursion along the chain)
 * — with no error in the page. Prints how long each page took to show the graph.
 */
import type { Page } from '@playwright/test';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const STEPS = 2500;

function sequential(id: string, steps: number): string {
  const lines = [`id: ${id}`, `name: ${steps} steps`, 'steps:'];
  for (let i = 0; i < steps; i++) lines.push(`  - id: s${i}`, '    acts:', `      - { id: a${i}, uses: acts.transform.set, params: { v${i}: ${i} } }`);
  return `${lines.join('\n')}\n`;
}

/** Collects the page's uncaught errors and console errors. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('a 2,500-step model opens in the designer and its run on the run page (prints the times)', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(120_000);
  const id = uniqueName('long');
  await deployModel(sequential(id, STEPS));
  const { pid } = await startProcess(id);
  await expect.poll(async () => (await adminApi.processes.get.query({ pid })).process.state, { timeout: 60_000 }).toBe('completed');

  await signInAs(['designer', 'operator']);
  const errors = pageErrors(page);
  let started = Date.now();
  await page.goto(`/models/${id}`);
  await expect(page.getByTestId('node-step:s0')).toBeVisible({ timeout: 30_000 });
  const designer = Date.now() - started;
  await expect(page.getByText(/call stack/i)).toHaveCount(0);

  started = Date.now();
  await page.goto(`/runs/${pid}`);
  await expect(page.getByTestId('run-graph').getByTestId('node-step:s0')).toBeVisible({ timeout: 30_000 });
  const run = Date.now() - started;
  await expect(page.getByText(/call stack/i)).toHaveCount(0);
  console.log(`[big models] ${STEPS} steps (${2 * STEPS + 2} nodes): designer shows the graph in ${designer} ms, the run page in ${run} ms`);
  expect(errors).toEqual([]);
});
