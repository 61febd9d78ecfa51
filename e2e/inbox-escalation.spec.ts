/**
 * Due dates and escalation in the inbox (issue: the operator inbox for real teams, item 3).
 * An escalation firing: a task offered to the clerks is not answered in time; its timeout rule's
 * `acts.core.escalate` offers it to the managers at a higher priority — the manager, in a browser
 * of her own, sees it arrive live marked "escalated" and reads why; the clerk sees it leave.
 * Overdue ordering with an injected clock: the browser's clock is moved on (Playwright's clock),
 * so the tasks due before that time are marked overdue, in due order, and the later one is not.
 */
import type { Page } from '@playwright/test';
import { screenshot, useSession } from './helpers/browser.ts';
import { createUser, deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const taskRow = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button', { name: new RegExp(title) });

test('an escalation firing: the task moves to the managers live, marked escalated, at a higher priority', async ({ page, browser, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const clerks = uniqueName('clerks');
  const managers = uniqueName('managers');
  const clerk = await signInAs(['operator']);
  const manager = await createUser({ roles: ['operator'] });
  for (const [group, user] of [
    [clerks, clerk.name],
    [managers, manager.name],
  ]) {
    await adminApi.groups.create.mutate({ name: group });
    await adminApi.groups.addMember.mutate({ name: group, user });
  }
  const id = uniqueName('esc');
  await deployModel(`id: ${id}
name: Escalating ${id}
steps:
  - id: pay
    name: Pay the invoice
    acts:
      - uses: acts.core.irq
        key: pay
        params: { title: 'Pay ${id}', candidate_groups: [${clerks}], priority: 40 }
        outputs: { paid: null }
        timeout:
          - on: 3s
            steps:
              - id: to_managers
                acts:
                  - uses: acts.core.escalate
                    params: { candidate_groups: [${managers}], priority: 90, reason: Not paid in time }
`);
  const context = await browser.newContext();
  await useSession(context, manager);
  const managerPage = await context.newPage();
  await managerPage.goto('/inbox');
  await page.goto('/inbox');
  await startProcess(id);

  await expect(taskRow(page, `Pay ${id}`)).toBeVisible();
  await expect(taskRow(page, `Pay ${id}`).getByTestId('row-escalated')).toHaveCount(0);
  await expect(taskRow(managerPage, `Pay ${id}`)).toHaveCount(0);

  // the rule fires on the server's next tick after 3 s: the manager sees it arrive, the clerk leave
  const arrived = taskRow(managerPage, `Pay ${id}`);
  await expect(arrived).toBeVisible({ timeout: 45_000 });
  await expect(arrived.getByTestId('row-escalated')).toHaveText(/escalated/);
  await expect(taskRow(page, `Pay ${id}`)).toHaveCount(0);
  await tab(managerPage, "My groups'").click();
  await arrived.click();
  await expect(managerPage.getByTestId('task-escalation')).toHaveText(new RegExp(`Escalated \\(offered to group ${managers}, priority 90\\): Not paid in time`));
  await screenshot(managerPage, 'inbox-escalated');
  await context.close();
});

test('overdue ordering with an injected clock: what is due before the browser’s time is overdue, in due order', async ({ page, signInAs }) => {
  const me = await signInAs(['operator']);
  const id = uniqueName('clock');
  for (const [suffix, due] of [
    ['third', '3h'],
    ['first', '1h'],
    ['second', '2h'],
  ]) {
    await deployModel(`id: ${id}-${suffix}
name: Clock ${suffix}
steps:
  - { id: s, acts: [ { uses: acts.core.irq, key: k, params: { title: '${suffix} ${id}', candidate_users: [${me.name}], due: ${due} } } ] }
`);
    await startProcess(`${id}-${suffix}`);
  }
  // the browser's clock two and a half hours on
  await page.clock.install({ time: Date.now() + 2.5 * 3_600_000 });
  await page.goto('/inbox');
  await page.getByLabel('Order').selectOption('due');
  const rows = page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button', { name: new RegExp(id) });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(`first ${id}`);
  await expect(rows.nth(1)).toContainText(`second ${id}`);
  await expect(rows.nth(2)).toContainText(`third ${id}`);
  await expect(rows.nth(0).getByTestId('row-due')).toHaveText(/^overdue 1 h (2\d|30) min$/);
  await expect(rows.nth(1).getByTestId('row-due')).toHaveText(/^overdue (2\d|30) min$/);
  await expect(rows.nth(2).getByTestId('row-due')).toHaveText(/^due in (2\d|30) min$/);
});
