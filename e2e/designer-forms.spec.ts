/** The designer builds what the graph alone could not (issue 17 item 3): an interrupt's params as a form with its answer fields, a parallel's `in`, a subflow's target from the deployed models, catches and timeouts with their acts, a schedule trigger with its cron, setup hooks. */
import type { Page } from '@playwright/test';
import { adminSession } from './helpers/api.ts';
import { deployModel, uniqueName } from './helpers/scene.ts';
import { deployButton, node, panel, setProperty, yaml } from './helpers/designer.ts';
import { expect, test } from './helpers/test.ts';

/** A new workflow with one step `step_1` holding an act of `uses` (selected). */
async function newWorkflowWith(page: Page, uses: string, actId: string) {
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(node(page, 'step:step_1')).toBeVisible();
  await page.getByRole('button', { name: `Add ${uses} to step_1` }).click();
  await expect(node(page, `act:${actId}`)).toBeVisible();
  await expect(panel(page)).toHaveAttribute('aria-label', /Properties of/);
}

test("an interrupt's params are a form: title, assignees, roles, required answers and field types, and its answer fields are its outputs", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await newWorkflowWith(page, 'acts.core.irq', 'irq_1');
  await expect(panel(page).getByLabel('params (YAML)')).toHaveCount(0);
  // a package this server does not run is in the palette, off, saying how an administrator turns it on
  const shell = page.locator('[data-package="acts.app.shell"]');
  await expect(shell).toBeDisabled();
  await expect(shell).toHaveAttribute('title', /ACTS_SHELL_ENABLE=1/);
  await setProperty(page, 'Title', 'Approve {{ amount }}?');
  await setProperty(page, 'Assignees (comma-separated)', 'alice, bob');
  await setProperty(page, 'Roles (comma-separated)', 'manager');
  await setProperty(page, 'Answer fields (comma-separated)', 'approved_by, comment');
  await setProperty(page, 'Required answers (comma-separated)', 'approved_by');
  for (const line of ["title: Approve {{ amount }}?", 'assignees:', '- alice', '- bob', 'roles:', '- manager', 'required:', '- approved_by', 'outputs:', 'approved_by: null', 'comment: null']) {
    await expect(yaml(page)).toContainText(line);
  }
  await expect(panel(page).getByLabel('Assignees (comma-separated)', { exact: true })).toHaveValue('alice, bob');
  // a field's type and label in the answer form: a group of fields, not YAML
  await panel(page).getByRole('button', { name: 'Add field' }).click();
  const field = panel(page).getByRole('group', { name: 'Field field_1' });
  await field.getByLabel('Field name', { exact: true }).fill('comment');
  await field.getByLabel('Field name', { exact: true }).press('Enter');
  const comment = panel(page).getByRole('group', { name: 'Field comment' });
  await comment.getByLabel('Type', { exact: true }).selectOption('string');
  await comment.getByLabel('Title', { exact: true }).fill('Why');
  await comment.getByLabel('Title', { exact: true }).press('Enter');
  for (const line of ['properties:', 'comment:', 'type: string', 'title: Why']) await expect(yaml(page)).toContainText(line);
  await expect(deployButton(page)).toHaveText('Deploy');
});

test("an external package is in the palette, said to run on a remote worker, and its params are a form from its schema", async ({ page, signInAs }) => {
  const { api } = await adminSession();
  await api.packages.register.mutate({ name: 'ext.resize', desc: 'Resizes an image', schema: { type: 'object', required: ['width'], properties: { width: { type: 'number', title: 'Width' }, url: { type: 'string', title: 'Image URL' } } } });
  await signInAs(['designer']);
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  const entry = page.locator('[data-package="ext.resize"]');
  await expect(entry).toHaveAttribute('data-external', 'true');
  await expect(entry).toContainText('Remote worker · Resizes an image');
  await page.getByRole('button', { name: 'Add ext.resize to step_1' }).click();
  await expect(node(page, 'act:resize_1')).toBeVisible();
  await setProperty(page, 'Width', '640');
  await setProperty(page, 'Image URL', '{{ image }}');
  for (const line of ['uses: ext.resize', 'width: 640', 'url: "{{ image }}"']) await expect(yaml(page)).toContainText(line);
});

test("a parallel's `in` is a form field where a template written alone stays a template", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await newWorkflowWith(page, 'acts.core.parallel', 'parallel_1');
  const items = panel(page).getByLabel('For each of (YAML)', { exact: true });
  await items.fill('{{ users }}');
  await items.blur();
  await expect(yaml(page)).toContainText('in: "{{ users }}"');
  await expect(items).toHaveValue('"{{ users }}"');
});

test("a subflow's target is chosen from the deployed models", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  const child = uniqueName('child');
  await deployModel(`id: ${child}\nsteps: [ { id: s1 } ]\n`);
  await newWorkflowWith(page, 'acts.core.subflow', 'subflow_1');
  const to = panel(page).getByLabel('Model to run', { exact: true });
  const listId = await to.getAttribute('list');
  expect(listId).toBeTruthy();
  await expect(page.locator(`datalist[id="${listId}"] option[value="${child}"]`)).toHaveCount(1);
  await setProperty(page, 'Model to run', child);
  await expect(yaml(page)).toContainText(`to: ${child}`);
});

test('a catch by ecode, a catch-all and a timeout are added to a step and an act, with their acts from the palette', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await newWorkflowWith(page, 'acts.core.irq', 'irq_1');

  await panel(page).getByLabel('Catch error code', { exact: true }).fill('rejected');
  await panel(page).getByRole('button', { name: 'Add catch' }).click();
  await expect(node(page, 'act:irq_1/catches[0]')).toContainText('catch rejected');
  await page.getByRole('button', { name: /^Add acts\.core\.msg to catch rejected/ }).click();
  await expect(node(page, 'act:msg_1')).toBeVisible();

  await node(page, 'step:step_1').click();
  await panel(page).getByRole('button', { name: 'Add catch' }).click();
  await expect(node(page, 'step:step_1/catches[0]')).toContainText('catch any error');

  await node(page, 'step:step_1').click();
  await expect(panel(page).getByRole('button', { name: 'Add timeout' })).toBeDisabled();
  await panel(page).getByLabel('Timeout after', { exact: true }).fill('2h');
  await panel(page).getByLabel('Timeout after', { exact: true }).press('Enter');
  await expect(node(page, 'step:step_1/timeout[0]')).toContainText('timeout 2h');
  await page.getByRole('button', { name: /^Add acts\.core\.msg to timeout 2h/ }).click();
  await expect(node(page, 'act:msg_2')).toBeVisible();

  for (const line of ['catches:', '- on: rejected', '- {}', 'timeout:', '- on: 2h', 'steps:', 'uses: acts.core.msg']) await expect(yaml(page)).toContainText(line);
  await expect(deployButton(page)).toHaveText('Deploy');
});

test('a schedule trigger is added from the workflow node and its cron set in its panel', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto('/models/new');
  await node(page, 'workflow').click();
  await panel(page).getByLabel('Trigger', { exact: true }).selectOption('acts.event.schedule');
  await panel(page).getByRole('button', { name: 'Add trigger' }).click();
  await expect(node(page, 'trigger:schedule_1')).toBeVisible();
  await expect(panel(page)).toContainText('acts.event.schedule');
  await setProperty(page, 'Cron', '0 0 3 * * *');
  for (const line of ['on:', '- id: schedule_1', 'uses: acts.event.schedule', "cron: 0 0 3 * * *"]) await expect(yaml(page)).toContainText(line);
  await expect(node(page, 'trigger:schedule_1').getByTestId('node-problem')).toHaveCount(0);
});

test('setup hooks are added to a step and to the workflow, on an event, running a package', async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await newWorkflowWith(page, 'acts.core.irq', 'irq_1');
  await node(page, 'step:step_1').click();
  await panel(page).getByLabel('Hook on', { exact: true }).selectOption('created');
  await panel(page).getByRole('button', { name: 'Add hook' }).click();
  await expect(node(page, 'act:msg_1')).toContainText('on created');

  await node(page, 'workflow').click();
  await panel(page).getByLabel('Hook on', { exact: true }).selectOption('completed');
  await panel(page).getByLabel('Hook runs', { exact: true }).selectOption('acts.core.msg');
  await panel(page).getByRole('button', { name: 'Add hook' }).click();
  await expect(node(page, 'act:msg_2')).toContainText('on completed');
  await setProperty(page, 'Text', 'Done');
  for (const line of ['setup:', '- id: msg_1', 'on: created', '- id: msg_2', 'on: completed', 'text: Done']) await expect(yaml(page)).toContainText(line);
  await expect(deployButton(page)).toHaveText('Deploy');
});

test("a hook's package starts at msg even when the packages arrive after its panel opened", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  // the packages' read is held until the step's panel is open (a slow server: it raced in the test above)
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/trpc\/[^?]*packages\.list/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/models/new');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(panel(page).getByLabel('Hook runs', { exact: true })).toBeVisible();
  release();
  await expect(panel(page).getByLabel('Hook runs', { exact: true }).locator('option')).not.toHaveCount(0);
  await expect(panel(page).getByLabel('Hook runs', { exact: true })).toHaveValue('acts.core.msg');
});
