/** The designer's view follows the selection (issue 17 item 3): a node picked from the problems list and a node just added come into view when the zoomed-in view does not show them. */
import type { Locator, Page } from '@playwright/test';
import { deployModel, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

/** The React Flow node of a graph node (drawn at every zoom). */
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const pane = (page: Page) => page.locator('.react-flow');

/** Whether the node's box lies whole inside the canvas pane. */
async function shownWhole(page: Page, target: Locator): Promise<boolean> {
  const [box, view] = await Promise.all([target.boundingBox(), pane(page).boundingBox()]);
  if (!box || !view) return false;
  return box.x >= view.x && box.y >= view.y && box.x + box.width <= view.x + view.width && box.y + box.height <= view.y + view.height;
}

/** Fits the whole graph, then zooms in three steps around the pane's centre (the first and last steps leave the view). */
async function zoomIntoTheMiddle(page: Page) {
  await page.getByRole('button', { name: 'Fit View' }).click();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom In' }).click();
}

/** Opens a deployed model of 16 steps s1…s16. */
async function openLongModel(page: Page) {
  const id = uniqueName('long');
  const steps = Array.from({ length: 16 }, (_, i) => `  - id: s${i + 1}\n`).join('');
  await deployModel(`id: ${id}\nsteps:\n${steps}`);
  await page.goto(`/models/${id}`);
  // the first open of a model may take a while on a loaded machine
  await expect(node(page, 'step:s16')).toBeVisible({ timeout: 15_000 });
}

test('a node picked in the problems list comes into view', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await openLongModel(page);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('  - id: last\n    next: nowhere\n');
  await expect(page.getByTestId('problem-item')).toHaveCount(1);

  await zoomIntoTheMiddle(page);
  await expect.poll(() => shownWhole(page, node(page, 'step:last'))).toBe(false);
  await page.getByTestId('problem-item').click();
  await expect.poll(() => shownWhole(page, node(page, 'step:last'))).toBe(true);
});

test('a step just added lands in view', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await openLongModel(page);
  await zoomIntoTheMiddle(page);
  await expect.poll(() => shownWhole(page, node(page, 'step:s16'))).toBe(false);
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(node(page, 'step:step_1')).toHaveCount(1);
  await expect.poll(() => shownWhole(page, node(page, 'step:step_1'))).toBe(true);
});
