/**
 * Drafts (issue 17 item 1, "work is lost without warning"): the designer saves the text and the
 * layout as a draft on the server a second after the last edit; leaving before that asks first
 * (sidebar link: the studio's dialog; closing or reloading: the browser's); a reload of
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
  await expect(page.getByTestId(`node-step:${id}`)).toBeVisible();
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
