/** The designer's node commands from the graph (issue 17 item 3): Delete, Duplicate and Wrap in step from the selected node's toolbar and from a node's context menu. */
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
  await page.keyboard.press('Escape');
  await expect(menu(page)).toHaveCount(0);
  await expect(node(page, 'step:step_1')).toBeVisible();
});
