/**
 * Drafts (issue 17 item 1, "work is lost without warning"): the designer saves the text and the
 * layout as a draft on the server a second after the last edit; leaving before that asks first
 * (sidebar link or back button: the studio's dialog; closing or reloading: the browser's); a reload of
 * /models/new restores the draft; the models page lists it; two designers on one model see each
 * other, and whoever deploys over the other's newer work is warned and must confirm.
 *
 * The autosave request is held back by the test (page.route) where a spec needs changes that are
 * not on the server yet, so nothing depends on how fast the machine is.
 */
import type { Page, Route } from '@playwright/test';
import { useSession } from './helpers/browser.ts';
import { createUser, deployModel, uniqueName } from './helpers/scene.ts';
import { expect as baseExpect, test } from './helpers/test.ts';

// every wait here is for a condition; pages that hydrate and join live rooms get more than the default 5 s on a loaded machine
const expect = baseExpect.configure({ timeout: 15_000 });

const draftStatus = (page: Page) => page.getByTestId('draft-status');
const node = (page: Page, id: string) => page.getByTestId(`node-${id}`);
const yaml = (page: Page) => page.getByTestId('yaml-editor');

/** Holds every autosave request until `release()` lets them (and later ones) through. */
async function holdSaves(page: Page): Promise<{ release(): Promise<void> }> {
  const held: Route[] = [];
  const handler = (route: Route) => void held.push(route);
  await page.route('**/api/trpc/*drafts.save*', handler);
  return {
    release: async () => {
      for (const route of held.splice(0)) await route.continue();
      await page.unroute('**/api/trpc/*drafts.save*', handler);
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** Appends a step to the YAML in the editor (the model's last key is `steps`). */
async function appendStep(page: Page, id: string) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(`  - id: ${id}\n    name: ${id}\n`);
  await expect(node(page, `step:${id}`)).toBeVisible();
}

test('a new workflow: leaving before the draft is saved asks first; a reload restores the draft; the models page lists it', async ({ page, signInAs }) => {
  test.setTimeout(60_000);
  await signInAs(['designer']);
  const name = uniqueName('Draft demo');
  await page.goto('/models');
  await page.getByRole('button', { name: 'New workflow' }).click();
  await expect(page).toHaveURL(/\/models\/new\?draft=[A-Za-z0-9]{16}$/);
  const draftUrl = page.url();

  const saves = await holdSaves(page);
  await page.getByTestId('node-workflow').click();
  const field = page.getByRole('form', { name: /^Properties of/ }).getByLabel('Name', { exact: true });
  await field.fill(name);
  await field.press('Enter');
  await expect(yaml(page)).toContainText(`name: ${name}`);
  await expect(draftStatus(page)).toHaveText('Saving draft…');

  // a sidebar link while the draft is not on the server: asked; Stay keeps the page and the edit
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Models' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  expect(page.url()).toBe(draftUrl);

  // the browser's back button (to the models page) while not saved: asked too; Stay keeps the page and the edit
  await page.evaluate(() => window.history.back());
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page).toHaveURL(draftUrl);
  await expect(yaml(page)).toContainText(`name: ${name}`);

  // closing the tab (or reloading) while not saved: the browser asks (beforeunload); dismissed, the page stays
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);

  await saves.release();
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);

  // saved: a reload asks nothing and brings the edit back
  await page.reload();
  await expect(yaml(page)).toContainText(`name: ${name}`);
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);
  await expect(page).toHaveURL(draftUrl);

  // saved: the sidebar link leaves at once, and the models page lists the draft
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Models' }).click();
  await expect(page).toHaveURL(/\/models$/);
  const row = page.getByRole('region', { name: 'Your drafts' }).getByTestId('draft-row').filter({ hasText: name });
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('a new workflow, not deployed yet');
  await row.getByRole('link', { name }).click();
  await expect(page).toHaveURL(draftUrl);
  await expect(yaml(page)).toContainText(`name: ${name}`);

  // Discard draft goes back to an empty workflow, and the draft leaves the list
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await page.getByRole('dialog', { name: 'Discard your draft?' }).getByRole('button', { name: 'Discard draft' }).click();
  await expect(yaml(page)).toContainText('name: New workflow');
  await expect(draftStatus(page)).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Models' }).click();
  await expect(page).toHaveURL(/\/models$/);
  await expect(page.getByText(name)).toHaveCount(0);
});

test('two designers on one model see each other; each deploy over the other’s newer work is warned and needs a confirmation', async ({ page, browser, signInAs }) => {
  test.setTimeout(90_000);
  const id = uniqueName('shared').replaceAll('-', '_');
  await deployModel(`id: ${id}\nname: Shared\nsteps:\n  - id: first\n    name: first\n`);
  const ana = await signInAs(['designer']);
  const bo = await createUser({ roles: ['designer'] });
  const boContext = await browser.newContext();
  await useSession(boContext, bo);
  const boPage = await boContext.newPage();

  await page.goto(`/models/${id}`);
  await boPage.goto(`/models/${id}`);
  await expect(page.getByTestId('presence')).toHaveText(`${bo.name} is editing this model`);
  await expect(boPage.getByTestId('presence')).toHaveText(`${ana.name} is editing this model`);

  // ana's draft begins first; bo's is saved after it began
  await appendStep(page, 'by_ana');
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);
  await appendStep(boPage, 'by_bo');
  await expect(draftStatus(boPage)).toHaveText(/^Draft saved /);

  // ana deploys over bo's newer draft: warned, Deploy held until she confirms
  await page.getByTestId('deploy-button').click();
  const anaDialog = page.getByRole('dialog', { name: 'Deploy a new version' });
  await expect(anaDialog.getByTestId('deploy-warnings')).toContainText(`${bo.name} has a draft of this model`);
  await expect(anaDialog.getByRole('button', { name: 'Deploy' })).toBeDisabled();
  await anaDialog.getByLabel('Deploy over these changes').check();
  await anaDialog.getByRole('button', { name: 'Deploy' }).click();
  await expect(page.getByText(`${id} · deployed v2`)).toBeVisible();
  await expect(draftStatus(page)).toHaveCount(0);

  // bo deploys from v1 after ana deployed v2: warned of her version
  await boPage.getByTestId('deploy-button').click();
  const boDialog = boPage.getByRole('dialog', { name: 'Deploy a new version' });
  await expect(boDialog.getByTestId('deploy-warnings')).toContainText(`v2 was deployed by ${ana.name}`);
  await expect(boDialog.getByTestId('deploy-warnings')).toContainText('after you started from v1');
  await expect(boDialog.getByRole('button', { name: 'Deploy' })).toBeDisabled();
  await boDialog.getByLabel('Deploy over these changes').check();
  await boDialog.getByRole('button', { name: 'Deploy' }).click();
  await expect(boPage.getByText(`${id} · deployed v3`)).toBeVisible();

  // bo leaves: ana no longer sees him
  await boContext.close();
  await expect(page.getByTestId('presence')).toHaveCount(0);
});

/** Where the designer placed a node (its React Flow transform: layout coordinates, not screen ones). */
const placeOf = (page: Page, nodeId: string) => page.locator(`.react-flow__node[data-id="${nodeId}"]`).evaluate((el) => (el as HTMLElement).style.transform);

test('an older version opens read-only beside the draft; Discard goes back to the deployed layout; back with unsaved changes asks', async ({ page, signInAs }) => {
  test.setTimeout(90_000);
  const id = uniqueName('versions').replaceAll('-', '_');
  await deployModel(`id: ${id}\nname: Versions\nsteps:\n  - id: first\n    name: first\n`);
  await deployModel(`id: ${id}\nname: Versions\nsteps:\n  - id: first\n    name: first\n  - id: second\n    name: second\n`);
  await signInAs(['designer']);
  await page.goto('/models');
  await page.goto(`/models/${id}`);
  const second = node(page, 'step:second');
  await expect(second).toBeVisible();
  const deployedPlace = await placeOf(page, 'step:second');

  // a dragged node and an edit make the draft; Discard brings back the deployed text and layout
  const box = (await second.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 2 + 40, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => placeOf(page, 'step:second')).not.toBe(deployedPlace);
  await appendStep(page, 'third');
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await page.getByRole('dialog', { name: 'Discard your draft?' }).getByRole('button', { name: 'Discard draft' }).click();
  await expect(node(page, 'step:third')).toHaveCount(0);
  await expect.poll(() => placeOf(page, 'step:second')).toBe(deployedPlace);
  await expect(draftStatus(page)).toHaveCount(0);

  // with a draft, v1 opens read-only: the draft is not replaced until the designer chooses to edit v1
  await appendStep(page, 'mine');
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);
  await page.getByRole('button', { name: 'Versions' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Open v1' }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${id}\\?ver=1$`));
  const note = page.getByRole('note', { name: 'Your draft is kept' });
  await expect(note).toContainText(`You are looking at ${id} v1`);
  await expect(yaml(page)).toHaveAttribute('aria-readonly', 'true');
  await expect(page.getByRole('button', { name: 'Add step' })).toHaveCount(0);
  await note.getByRole('link', { name: 'Open my draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${id}$`));
  await expect(node(page, 'step:mine')).toBeVisible();

  await page.goto(`/models/${id}?ver=1`);
  await page.getByRole('note', { name: 'Your draft is kept' }).getByRole('button', { name: 'Edit this version' }).click();
  await expect(page.getByRole('note', { name: 'Your draft is kept' })).toHaveCount(0);
  await appendStep(page, 'from_v1');
  await expect(draftStatus(page)).toHaveText(/^Draft saved /);
  await page.goto(`/models/${id}`);
  await expect(node(page, 'step:from_v1')).toBeVisible();
  await expect(node(page, 'step:mine')).toHaveCount(0);

  // back (to the models page, in the same document) with an edit not on the server: asked; Leave goes back
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Models' }).click();
  await expect(page).toHaveURL(/\/models$/);
  await page.locator(`a[href="/models/${id}"]`).first().click();
  await expect(node(page, 'step:from_v1')).toBeVisible();
  const saves = await holdSaves(page);
  await appendStep(page, 'unsaved');
  await expect(draftStatus(page)).toHaveText('Saving draft…');
  await page.evaluate(() => window.history.back());
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/models/${id}$`));
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/models$/);
  await saves.release();
});
