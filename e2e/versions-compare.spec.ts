/**
 * Comparing two versions on the graph: from the designer's version history to the comparison
 * page, nodes marked added / removed / changed / moved (`data-diff`), the changed node's fields
 * old → new in the side panel, the YAML merge view scrolled to that node in both texts, and the
 * overlay / side-by-side toggle.
 */
import type { Locator, Page } from '@playwright/test';
import { screenshot } from './helpers/browser.ts';
import { claimsV1, claimsV2 } from '../test/helpers/claims-versions.ts';
import { deployModel, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const canvas = (page: Page, side: 'overlay' | 'before' | 'after') => page.getByTestId(`compare-canvas-${side}`);
const nodeIn = (scope: Locator, id: string) => scope.getByTestId(`node-${id}`);

test('two versions compared on the graph: marks, the changed fields, the YAML merge view at the node, overlay and side by side', async ({ page, signInAs }) => {
  test.setTimeout(60_000);
  await signInAs(['designer']);
  const id = uniqueName('claims');
  // filler steps first: the changed act sits below the merge view's first screen
  await deployModel(claimsV1(id, 8));
  await deployModel(claimsV2(id, 8));

  await page.goto(`/models/${id}`);
  await page.getByRole('button', { name: 'Versions' }).click();
  await page.getByTestId('compare-on-graph').click();
  await expect(page).toHaveURL(new RegExp(`/models/${id}/compare\\?from=1&to=2$`));

  await page.getByRole('button', { name: 'Overlay' }).click();
  const overlay = canvas(page, 'overlay');
  await expect(nodeIn(overlay, 'act:triage')).toHaveAttribute('data-diff', 'changed');
  await expect(nodeIn(overlay, 'step:review')).toHaveAttribute('data-diff', 'removed');
  await expect(nodeIn(overlay, 'step:assessment')).toHaveAttribute('data-diff', 'added');
  await expect(nodeIn(overlay, 'act:assess')).toHaveAttribute('data-diff', 'moved');
  await expect(nodeIn(overlay, 'act:fraud_check')).toHaveAttribute('data-diff', 'added');
  await expect(nodeIn(overlay, 'act:legacy_check')).toHaveAttribute('data-diff', 'removed');
  await expect(nodeIn(overlay, 'step:intake')).not.toHaveAttribute('data-diff');
  await expect(page.getByTestId('change-panel')).toContainText('2 added · 2 removed · 1 changed · 1 moved');

  await nodeIn(overlay, 'act:triage').click();
  const details = page.getByTestId('change-details');
  await expect(details).toHaveAttribute('data-key', 'act:triage');
  const params = details.locator('[data-field="params"]');
  await expect(params.locator('td').first()).toHaveText('{"title":"Triage"}');
  await expect(params.locator('td').last()).toHaveText('{"title":"Triage now"}');

  // the merge view marks the node's lines in both texts and has scrolled them into its view
  const merge = page.getByTestId('yaml-merge');
  await merge.scrollIntoViewIfNeeded();
  const focused = merge.locator('[data-node-focus]');
  await expect(focused).toHaveCount(2);
  await expect(focused.first()).toContainText('id: triage');
  await expect(focused.last()).toContainText('Triage now');
  await expect(focused.last()).toBeInViewport();
  await expect(focused.first()).toBeInViewport();

  // a node picked in the list: the removed step, drawn from the old text only
  await page.getByTestId('change-panel').getByRole('button', { name: '- step review' }).click();
  await expect(details).toHaveAttribute('data-status', 'removed');
  const [oldText, newText] = [merge.locator('.cm-mergeViewEditor').first(), merge.locator('.cm-mergeViewEditor').last()];
  await expect(newText.locator('[data-node-focus]')).toHaveCount(0);
  await expect(oldText.locator('[data-node-focus]').first()).toContainText('- id: review');
  await expect(oldText.locator('[data-node-focus]').first()).toBeInViewport();

  await page.getByRole('button', { name: 'Side by side' }).click();
  await expect(overlay).toHaveCount(0);
  await expect(nodeIn(canvas(page, 'before'), 'step:review')).toHaveAttribute('data-diff', 'removed');
  await expect(nodeIn(canvas(page, 'before'), 'act:triage')).toHaveAttribute('data-diff', 'changed');
  await expect(nodeIn(canvas(page, 'before'), 'step:assessment')).toHaveCount(0);
  await expect(nodeIn(canvas(page, 'after'), 'step:assessment')).toHaveAttribute('data-diff', 'added');
  await expect(nodeIn(canvas(page, 'after'), 'act:assess')).toHaveAttribute('data-diff', 'moved');
  await expect(nodeIn(canvas(page, 'after'), 'step:review')).toHaveCount(0);
  await nodeIn(canvas(page, 'after'), 'act:assess').click();
  await expect(details).toHaveAttribute('data-key', 'act:assess');
  await expect(page.getByTestId('change-moved')).toContainText('Moved from step:review, acts[0] to step:assessment, acts[0]');
  await expect(nodeIn(canvas(page, 'before'), 'act:assess')).toHaveAttribute('data-selected', 'true');

  await page.getByRole('button', { name: 'Overlay' }).click();
  await expect(canvas(page, 'before')).toHaveCount(0);
  await expect(nodeIn(canvas(page, 'overlay'), 'act:assess')).toHaveAttribute('data-selected', 'true');
  await screenshot(page, 'version-compare');
});
