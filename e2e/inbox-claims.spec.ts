/**
 * The inbox for teams (issue: the operator inbox for real teams, items 1-2): three members of a
 * group, each in a browser of their own. A task offered to the group is in each one's "My groups'"
 * tab; one claims it and the other two see, live, who holds it — it leaves their "My groups'" tab,
 * their form says it is held and will not send; the holder delegates it to a third user, who
 * answers it, and the run completes; the run page shows the task's history.
 */
import type { Locator, Page } from '@playwright/test';
import { screenshot, useSession } from './helpers/browser.ts';
import { inboxTab as tab, pageOf, taskRow } from './helpers/inbox.ts';
import { createUser, deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function model(id: string, group: string): string {
  return `id: ${id}
name: Team ${id}
steps:
  - id: pay
    name: Pay the invoice
    acts:
      - id: pay_it
        uses: acts.core.irq
        key: pay
        params: { title: 'Pay invoice ${id}?', candidate_groups: [${group}] }
        outputs: { paid: null }
`;
}

test('a claim is seen live by the other members; the holder delegates and the delegate answers', async ({ page, browser, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const group = uniqueName('team');
  await adminApi.groups.create.mutate({ name: group, description: 'e2e team' });
  const ana = await signInAs(['operator']);
  const bo = await createUser({ roles: ['operator'] });
  const cy = await createUser({ roles: ['operator'] });
  const dee = await createUser({ roles: ['operator'] });
  for (const user of [ana, bo, cy]) await adminApi.groups.addMember.mutate({ name: group, user: user.name });
  const id = uniqueName('pay');
  await deployModel(model(id, group));
  const { pid } = await startProcess(id);
  const title = `Pay invoice ${id}?`;

  const pages: Record<string, Page> = { ana: page };
  for (const [name, session] of [['bo', bo], ['cy', cy], ['dee', dee]] as const) pages[name] = await pageOf(browser, session);
  for (const name of ['ana', 'bo', 'cy']) {
    await pages[name].goto('/inbox');
    await tab(pages[name], "My groups'").click();
    await expect(taskRow(pages[name], title)).toBeVisible();
  }
  // dee is not in the group: the task is not hers (the suite's other tasks may be)
  await pages.dee.goto('/inbox');
  await expect(pages.dee.getByText(/tasks? waits? for you|Nothing waits for you/).first()).toBeVisible();
  await expect(taskRow(pages.dee, title)).toHaveCount(0);

  // bo and cy have the task open when ana claims it
  for (const name of ['bo', 'cy']) {
    await taskRow(pages[name], title).click();
    await expect(pages[name].getByTestId('task-holder')).toHaveText('No one holds this task.');
  }
  await taskRow(page, title).click();
  await page.getByRole('group', { name: 'Who works on it' }).getByRole('button', { name: 'Claim' }).click();
  await expect(page.getByTestId('task-holder')).toHaveText(/^You hold this task since/);
  for (const name of ['bo', 'cy']) {
    await expect(pages[name].getByTestId('task-holder')).toHaveText(new RegExp(`^Held by ${ana.name} since`));
    await expect(pages[name].getByRole('status').filter({ hasText: `${ana.name} holds this task` })).toBeVisible();
    await expect(pages[name].getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
    await expect(taskRow(pages[name], title)).toHaveCount(0);
    await tab(pages[name], 'All I may see').click();
    await expect(taskRow(pages[name], title).getByTestId('row-holder')).toHaveText(`held by ${ana.name}`);
  }
  await screenshot(pages.bo, 'inbox-team');
  await tab(page, 'Mine').click();
  await expect(taskRow(page, title)).toBeVisible();

  // ana delegates to dee, who is not in the group; the task is then in dee's "Mine"
  const bar = page.getByRole('group', { name: 'Who works on it' });
  await bar.getByLabel('Delegate to').fill(dee.name);
  await bar.getByRole('button', { name: 'Delegate' }).click();
  await expect(page.getByTestId('task-holder')).toHaveText(new RegExp(`^Held by ${dee.name} since .* \\(delegated by ${ana.name}\\)\\.$`));
  await tab(pages.dee, 'Mine').click();
  await taskRow(pages.dee, title).click();
  await expect(pages.dee.getByTestId('task-holder')).toHaveText(new RegExp(`^You hold this task since .* \\(delegated by ${ana.name}\\)\\.$`));
  await pages.dee.getByLabel('paid').fill('yes');
  await pages.dee.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(pages.dee.getByRole('status').filter({ hasText: `Approved: ${title}` })).toBeVisible();
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  // the task's history on the run page
  await pages.dee.goto(`/runs/${pid}`);
  await pages.dee.getByTestId('node-act:pay_it').click();
  await expect(pages.dee.getByRole('list', { name: 'Task history' }).getByRole('listitem')).toHaveText([
    new RegExp(`${dee.name} completed it$`),
    new RegExp(`${ana.name} delegated it to ${dee.name}$`),
    new RegExp(`${ana.name} claimed it$`),
  ]);
  const tid = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.key === 'pay' && t.kind === 'act')!.tid;
  const history = await adminApi.audit.query.query({ target: `${pid}/${tid}`, limit: 50 });
  expect(history.rows.map((e) => `${e.actor_name} ${e.action} ${e.result}`).reverse()).toEqual([`${ana.name} task.claim ok`, `${ana.name} task.delegate ok`, `${dee.name} task.complete ok`]);
});

test('an admin makes a group on the users page and adds a member, who then sees its task', async ({ page, browser, signInAs }) => {
  test.setTimeout(90_000);
  const member = await createUser({ roles: ['operator'] });
  await signInAs('admin');
  await page.goto('/admin/users');
  const group = uniqueName('desk');
  const add = page.getByRole('form', { name: 'Add a group' });
  await add.getByLabel('New group name').fill(group);
  await add.getByLabel('Description').fill('front desk');
  await add.getByRole('button', { name: 'Add group' }).click();
  const row = page.locator(`[data-group="${group}"]`);
  await expect(row).toContainText('front desk');
  await expect(row.getByRole('list', { name: `Members of ${group}` })).toHaveText('No members yet.');
  await row.getByLabel('Add a member').selectOption(member.name);
  await row.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(row.getByRole('list', { name: `Members of ${group}` }).getByRole('listitem')).toHaveText([`${member.name} ×`]);
  // a bad name gets the rule
  await add.getByLabel('New group name').fill('-no');
  await add.getByRole('button', { name: 'Add group' }).click();
  await expect(add.getByRole('alert')).toContainText('a group name is 1 to 64 letters');

  const id = uniqueName('desk-task');
  await deployModel(model(id, group));
  await startProcess(id);
  const context = await browser.newContext();
  await useSession(context, member);
  const theirs = await context.newPage();
  await theirs.goto('/inbox');
  await tab(theirs, "My groups'").click();
  await expect(taskRow(theirs, `Pay invoice ${id}?`)).toBeVisible();
});

test('due dates: the inbox orders by due date or priority, marks the overdue task, and the overview counts it', async ({ page, signInAs }) => {
  const me = await signInAs(['operator']);
  const id = uniqueName('due');
  const source = (suffix: string, params: string) => `id: ${id}-${suffix}
name: Due ${suffix}
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: k, params: { title: '${suffix} ${id}', candidate_users: [${me.name}], ${params} } }
`;
  for (const [suffix, params] of [
    ['late', "due: '2020-01-01', priority: 10"],
    ['soon', 'due: 2h'],
    ['urgent', 'priority: 90'],
  ]) {
    await deployModel(source(suffix, params));
    await startProcess(`${id}-${suffix}`);
  }
  await page.goto('/inbox');
  const titles = page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button', { name: new RegExp(id) });
  await page.getByLabel('Order').selectOption('due');
  await expect(titles).toHaveCount(3);
  await expect(titles.nth(0)).toContainText(`late ${id}`);
  await expect(titles.nth(1)).toContainText(`soon ${id}`);
  await expect(titles.nth(0).getByTestId('row-due')).toHaveText(/^overdue \d+ d/);
  await expect(titles.nth(1).getByTestId('row-due')).toHaveText(/^due in (1 h 5\d min|2 h)$/);
  await page.getByLabel('Order').selectOption('priority');
  await expect(titles.nth(0)).toContainText(`urgent ${id}`);
  await expect(titles.nth(2)).toContainText(`late ${id}`);
  await page.goto('/');
  await expect(page.getByTestId('overdue-count')).toHaveText(/tasks? (is|are) overdue/);
});

test('delegation: confirm — the delegate’s answer goes back to the delegator, who sends it', async ({ page, browser, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const ana = await signInAs(['operator']);
  const dee = await createUser({ roles: ['operator'] });
  const id = uniqueName('sign');
  await deployModel(`id: ${id}
name: Sign ${id}
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: sign, params: { title: 'Sign ${id}?', assignee: ${ana.name}, delegation: confirm }, outputs: { note: '' } }
`);
  const { pid } = await startProcess(id);
  const title = `Sign ${id}?`;
  await page.goto('/inbox');
  await taskRow(page, title).click();
  const bar = page.getByRole('group', { name: 'Who works on it' });
  await bar.getByLabel('Delegate to').fill(dee.name);
  await bar.getByRole('button', { name: 'Delegate' }).click();
  await expect(page.getByTestId('task-holder')).toHaveText(new RegExp(`^Held by ${dee.name}`));

  const context = await browser.newContext();
  await useSession(context, dee);
  const theirs = await context.newPage();
  await theirs.goto('/inbox');
  await taskRow(theirs, title).click();
  await expect(theirs.getByTestId('task-proposing')).toHaveText(`${ana.name} confirms the answer to this task: yours goes back to them.`);
  await theirs.getByLabel('note').fill('checked twice');
  await theirs.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(theirs.getByTestId('task-holder')).toHaveText(new RegExp(`^Held by ${ana.name}`));

  await expect(page.getByTestId('task-holder')).toHaveText(/^You hold this task/);
  await expect(page.getByTestId('task-proposal')).toHaveText(`Proposed by ${dee.name}: {"note":"checked twice"}`);
  await page.getByLabel('note').fill('checked twice');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
});

test('a comment on a task is read by whoever opens the next task of the run, and in the task history', async ({ page, browser, signInAs }) => {
  test.setTimeout(90_000);
  const ana = await signInAs(['operator']);
  const bo = await createUser({ roles: ['operator'] });
  const id = uniqueName('note');
  await deployModel(`id: ${id}
name: Notes ${id}
steps:
  - id: first
    acts:
      - { id: check, uses: acts.core.irq, key: check, params: { title: 'Check ${id}', candidate_users: [${ana.name}] } }
  - id: second
    acts:
      - { uses: acts.core.irq, key: pay, params: { title: 'Pay ${id}', candidate_users: [${bo.name}] } }
`);
  const { pid } = await startProcess(id);
  await page.goto('/inbox');
  await taskRow(page, `Check ${id}`).click();
  const comments = page.getByRole('region', { name: 'Comments' });
  await comments.getByLabel('Comment for the next people who see this run').fill('the amount was agreed by phone');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByRole('list', { name: 'Comments on this run' }).getByRole('listitem')).toHaveText([new RegExp(`^${ana.name}, just now: the amount was agreed by phone$`)]);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();

  const context = await browser.newContext();
  await useSession(context, bo);
  const theirs = await context.newPage();
  await theirs.goto('/inbox');
  await taskRow(theirs, `Pay ${id}`).click();
  await expect(theirs.getByRole('list', { name: 'Comments on this run' }).getByRole('listitem')).toHaveText([new RegExp(`^${ana.name}, .* \\(on an earlier task\\): the amount was agreed by phone$`)]);

  await theirs.goto(`/runs/${pid}`);
  await theirs.getByTestId('node-act:check').click();
  await expect(theirs.getByRole('list', { name: 'Task history' }).getByRole('listitem')).toHaveText([
    new RegExp(`${ana.name} completed it$`),
    new RegExp(`${ana.name} commented: “the amount was agreed by phone”$`),
  ]);
});

test('bulk decisions: 100 tasks ticked with a shift-click and approved together; two answered elsewhere meanwhile are reported', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(120_000);
  const me = await signInAs(['operator']);
  const id = uniqueName('bulk');
  await deployModel(`id: ${id}
name: Bulk ${id}
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: ok, params: { title: 'Bulk {{ n }} ${id}', candidate_users: [${me.name}] } }
`);
  const pids: string[] = [];
  for (let n = 0; n < 100; n++) pids.push((await startProcess(id, { n })).pid);
  // every task is in the inbox before the page reads it (a start answers before its task's rows are written)
  await expect.poll(async () => (await adminApi.inbox.list.query({ mid: id, limit: 1, offset: 0 })).count, { timeout: 30_000 }).toBe(100);
  await page.goto('/inbox');
  await tab(page, 'Mine').click();
  await tab(page, 'All I may see').click();
  const tick = (n: number) => page.getByRole('checkbox', { name: `Select Bulk ${n} ${id}` });
  const ticks = page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('checkbox', { name: new RegExp(`^Select Bulk \\d+ ${id}$`) });
  const numberOf = async (box: Locator) => Number(/Bulk (\d+)/.exec((await box.getAttribute('aria-label')) ?? '')?.[1]);
  // newest first (the order in which their acts began, which concurrent starts may interleave):
  // the first at the top, the last a hundred rows down; the other tests' tasks are older, below them
  await ticks.first().click();
  const scroller = page.getByTestId('inbox-scroller');
  await expect.poll(() => scroller.evaluate((el) => (el.scrollBy(0, 2000), el.scrollTop + el.clientHeight >= el.scrollHeight - 1))).toBe(true);
  await ticks.last().click({ modifiers: ['Shift'] });
  const bar = page.getByRole('group', { name: 'Decide the selected tasks' });
  await expect(bar).toContainText('100 tasks selected');
  // meanwhile two of those in view are answered elsewhere: the list drops them (its live refresh),
  // yet they stay ticked, so the decision reports them instead of leaving them out unseen
  const [a, b] = [await numberOf(ticks.nth(-3)), await numberOf(ticks.nth(-5))];
  await expect(tick(a)).toBeVisible();
  await expect(tick(b)).toBeVisible();
  for (const pid of [pids[a], pids[b]]) {
    const tid = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.key === 'ok' && t.kind === 'act')!.tid;
    await adminApi.tasks.complete.mutate({ pid, tid, options: { by: 'elsewhere' } });
  }
  await expect(tick(a)).toHaveCount(0);
  await expect(tick(b)).toHaveCount(0);
  await expect(bar).toContainText('100 tasks selected');
  await bar.getByRole('button', { name: 'Approve all' }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('98 decided, 2 not:');
  await expect(page.getByTestId('bulk-result').getByRole('listitem')).toHaveCount(2);
  await expect.poll(async () => (await adminApi.processes.list.query({ mid: id, state: 'completed', limit: 1 })).count).toBe(100);
  expect((await adminApi.processes.get.query({ pid: pids[a] })).variables).toMatchObject({ by: 'elsewhere' });
});
