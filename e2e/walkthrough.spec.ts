/**
 * README's "From `npm start` to a first approved run", step by step in the browser as a new user
 * does it (the signed-in admin is the only thing set up through the fixtures): Models → Import
 * YAML → the designer with its graph → Deploy with a note → Run with the inputs' form → the live
 * run page → Inbox: approve the manager's task, the director's arrives live, approve it → Runs:
 * the run completed, its variables say who approved. Also the designer's Export (the downloaded
 * file is the deployed YAML, comments included) and its toolbar Import.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/test.ts';

const EXAMPLE = path.resolve(import.meta.dirname, '../examples/approval-chain.yml');
const MODEL_ID = 'approval-chain';

const nav = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
const graphNode = (page: Page, graph: 'Workflow graph' | 'Run graph', name: string | RegExp) => page.getByLabel(graph).getByRole('group', { name });
const taskRow = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: title });

/**
 * The row of a task in the inbox, scrolled to. A new user's inbox holds just this run's task; on
 * the suite's shared server the tasks of other specs are listed too (newest first, only the rows
 * near the view rendered), so the list is walked from the top until ours is in view.
 */
async function findTask(page: Page, title: string) {
  const row = taskRow(page, title);
  const scroller = page.getByTestId('inbox-scroller');
  // The list is virtualised and newest first: each try starts at the top (the list may have been
  // scrolled before the task arrived) and walks down a screen at a time (loading further pages).
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    for (let screens = 0; screens < 50 && (await row.count()) === 0; screens++) {
      const moved = await scroller.evaluate((el) => {
        const before = el.scrollTop;
        el.scrollBy(0, el.clientHeight);
        return el.scrollTop !== before;
      });
      if (!moved) break;
    }
    await expect(row).toHaveCount(1, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  return row;
}

/** Models → Import YAML with the example (the file chooser), then the designer opens on it. */
async function importExample(page: Page): Promise<void> {
  await page.goto('/');
  await nav(page, 'Models').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import YAML', exact: true }).click();
  await (await chooser).setFiles(EXAMPLE);
  await expect(page).toHaveURL(new RegExp(`/models/${MODEL_ID}$`));
  await expect(graphNode(page, 'Workflow graph', 'step Manager approval')).toBeVisible();
  await expect(graphNode(page, 'Workflow graph', 'step Director approval')).toBeVisible();
}

test('README walkthrough: import, deploy with a note, run, approve twice in the inbox, see the completed run', async ({ page, signInAs }) => {
  test.setTimeout(60_000);
  await signInAs('admin');
  await importExample(page);
  const designer = page.getByRole('toolbar', { name: 'Designer' });
  await expect(designer.getByText(new RegExp(`^${MODEL_ID} · deployed v\\d+$`))).toBeVisible();
  const before = Number((await designer.getByText(/ · deployed v\d+$/).textContent())!.match(/v(\d+)$/)![1]);
  await expect(page.getByLabel('Workflow YAML')).toContainText('# An expense goes through a manager and then a director');

  // Deploy (add a version note) — once the model is checked, the button says just "Deploy"
  const deploy = designer.getByRole('button', { name: 'Deploy', exact: true });
  await expect(deploy).toBeEnabled();
  await deploy.click();
  const deployDialog = page.getByRole('dialog', { name: 'Deploy a new version' });
  await deployDialog.getByLabel('Version note').fill('first run from the README');
  await deployDialog.getByRole('button', { name: 'Deploy' }).click();
  await expect(deployDialog).toBeHidden();
  await expect(designer.getByText(`${MODEL_ID} · deployed v${before + 1}`)).toBeVisible();

  // Run: the form asks for the workflow's inputs, with their defaults
  await designer.getByRole('button', { name: 'Run', exact: true }).click();
  const runDialog = page.getByRole('dialog', { name: `Run ${MODEL_ID}` });
  await expect(runDialog.getByRole('textbox')).toHaveCount(2);
  await expect(runDialog.getByLabel('amount', { exact: true })).toHaveValue('120');
  await expect(runDialog.getByLabel('requester', { exact: true })).toHaveValue('alice');
  const amount = 1000 + Math.floor(Math.random() * 1e6); // unique, so this run's tasks are told apart from others in the inbox
  await runDialog.getByLabel('amount', { exact: true }).fill(String(amount));
  await runDialog.getByRole('button', { name: 'Start run' }).click();
  const started = runDialog.getByRole('status');
  await expect(started).toContainText('Started run');
  const pid = (await started.getByRole('code').textContent())!.trim();
  await runDialog.getByRole('link', { name: 'Open the run' }).click();

  // the live run page: the manager's approval is waiting
  await expect(page).toHaveURL(new RegExp(`/runs/${pid}$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Expense approval' })).toBeVisible();
  await expect(page.getByTestId('run-state')).toContainText('Running');
  await expect(graphNode(page, 'Run graph', /^act manager_approve, interrupted$/)).toBeVisible();

  // Inbox: open the manager's task, fill "Approved by", Approve
  await nav(page, 'Inbox').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
  const managerTitle = `Approve ${amount} for alice?`;
  await (await findTask(page, managerTitle)).click();
  const managerForm = page.getByRole('region', { name: managerTitle });
  await managerForm.getByLabel('Approved by').fill('bob');
  await managerForm.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Approved: ${managerTitle}` })).toBeVisible();
  await expect(taskRow(page, managerTitle)).toHaveCount(0);

  // the director's task arrives live (no reload); approve it too
  const directorTitle = `Second approval of ${amount} (manager bob)`;
  await (await findTask(page, directorTitle)).click();
  const directorForm = page.getByRole('region', { name: directorTitle });
  await directorForm.getByLabel('Approved by').fill('carol');
  await directorForm.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(taskRow(page, directorTitle)).toHaveCount(0);

  // Runs: the run is completed; its page shows every node completed and who approved
  await nav(page, 'Runs').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ hasText: pid });
  await expect(row.getByRole('cell').first()).toHaveText('Completed');
  await row.getByRole('link', { name: 'Expense approval' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${pid}$`));
  await expect(page.getByTestId('run-state')).toHaveText('Completed');
  for (const name of ['step Manager approval', 'step Director approval', 'act manager_approve', 'act director_approve']) {
    await expect(graphNode(page, 'Run graph', `${name}, completed`)).toBeVisible();
  }
  await page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: /^\S+ workflow Expense approval Completed/ }).click();
  const variables = page.getByRole('region', { name: 'Data (variables)' });
  await expect(variables).toContainText('"approved_by": "carol"');
  await expect(variables).toContainText(`"amount": ${amount}`);
});

test('Export downloads the deployed YAML as it was written (comments included); the toolbar Import opens a file in the designer', async ({ page, adminApi, signInAs }) => {
  await signInAs('admin');
  const example = await readFile(EXAMPLE, 'utf8');
  await importExample(page);
  const designer = page.getByRole('toolbar', { name: 'Designer' });
  const deployed = await adminApi.models.get.query({ id: MODEL_ID });

  const download = page.waitForEvent('download');
  await designer.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${MODEL_ID}.yml`);
  const exported = await readFile(await file.path(), 'utf8');
  expect(exported).toBe(deployed.source);
  expect(exported).toBe(example);
  expect(exported).toContain('# An expense goes through a manager and then a director');

  // a new workflow, then the toolbar's Import: the file's text replaces the YAML and the graph follows
  await page.goto('/models/new');
  await expect(graphNode(page, 'Workflow graph', 'start New workflow')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await designer.getByRole('button', { name: 'Import', exact: true }).click();
  await (await chooser).setFiles(EXAMPLE);
  await expect(graphNode(page, 'Workflow graph', 'step Director approval')).toBeVisible();
  await expect(page.getByLabel('Workflow YAML')).toContainText('# An expense goes through a manager and then a director');
  const again = page.waitForEvent('download');
  await designer.getByRole('button', { name: 'Export', exact: true }).click();
  expect(await readFile(await (await again).path(), 'utf8')).toBe(example);
});
