/** The designer's node commands from the graph (issue 17 item 3): Delete, Duplicate and Wrap in step from the selected node's toolbar, a node's context menu (kept on screen) and the keyboard. */
import type { Page } from '@playwright/test';
import { node, yaml } from './helpers/designer.ts';
import { expect, test } from './helpers/test.ts';

const toolbar = (page: Page) => page.getByRole('toolbar', { name: /^Actions on/ });
const menu = (page: Page) => page.getByRole('menu', { name: /^Actions on/ });

test('Duplicate and Wrap in step from the toolbar, Delete and Wrap in step from the context menu', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(node(page, 'step:step_1')).toBeVisible();
  await expect(toolbar(page).getByRole('button', { name: 'Wrap in step' })).toBeDisabled();
  await page.getByRole('button', { name: 'Add acts.core.msg to step_1' }).click();
  await expect(node(page, 'act:msg_1')).toBeVisible();

  await toolbar(page).getByRole('button', { name: 'Duplicate' }).click();
  await expect(node(page, 'act:msg_2')).toBeVisible();
  await expect(yaml(page)).toContainText('id: msg_2');

  await node(page, 'act:msg_2').click({ button: 'right' });
  await expect(menu(page)).toBeVisible();
  await menu(page).getByRole('menuitem', { name: 'Wrap in step' }).click();
  await expect(menu(page)).toHaveCount(0);
  await expect(node(page, 'step:step_2')).toBeVisible();
  await expect(yaml(page)).toContainText('- id: step_2\n    acts:\n      - id: msg_2');

  await node(page, 'act:msg_1').click({ button: 'right' });
  await menu(page).getByRole('menuitem', { name: 'Delete' }).click();
  await expect(node(page, 'act:msg_1')).toHaveCount(0);
  await expect(yaml(page)).not.toContainText('- id: msg_1\n');

  await node(page, 'step:step_2').click();
  await toolbar(page).getByRole('button', { name: 'Duplicate' }).click();
  await expect(node(page, 'step:step_3')).toBeVisible();
  await expect(node(page, 'act:msg_1')).toBeVisible();

  await node(page, 'step:step_1').click({ button: 'right' });
  await expect(menu(page).getByRole('menuitem', { name: 'Wrap in step' })).toBeDisabled();
  await expect(menu(page).getByRole('menuitem', { name: 'Duplicate' })).toHaveAttribute('aria-keyshortcuts', 'Control+D');
  await page.keyboard.press('Escape');
  await expect(menu(page)).toHaveCount(0);
  await expect(node(page, 'step:step_1')).toBeVisible();

  // Ctrl+D duplicates the selected node
  await node(page, 'act:msg_2').click();
  await page.keyboard.press('Control+d');
  await expect(node(page, 'act:msg_3')).toBeVisible();
  await expect(yaml(page)).toContainText('id: msg_3');

  // a menu opened at the window's corner moves to stay whole
  const view = page.viewportSize()!;
  await node(page, 'act:msg_3').dispatchEvent('contextmenu', { clientX: view.width - 2, clientY: view.height - 2, button: 2 });
  const box = (await menu(page).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  await page.keyboard.press('Escape');
});
