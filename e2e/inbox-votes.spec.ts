/**
 * M-of-N approvals in the studio (issue 15 item 5): a 2-of-3 approval. The requester starts the
 * run; three members of the group, each in a browser of their own, have the task open. The first
 * approves with a comment and the other two see it live ("1 of 2 approved", who and why); the
 * second's approval decides the task, the third's form then says it no longer waits; the run goes
 * on. The requester sees the task and its votes, but may not vote. The run page badges the act with where the votes stand and lists them in its history.
 */
import type { Page } from '@playwright/test';
import { screenshot } from './helpers/browser.ts';
import { inboxTab as tab, pageOf, taskRow } from './helpers/inbox.ts';
import { createUser, deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function model(id: string, group: string): string {
  return `id: ${id}
name: Votes ${id}
steps:
  - id: sign
    name: Sign the contract
    acts:
      - id: sign_it
        uses: acts.core.irq
        key: sign
        params: { title: 'Sign contract ${id}?', candidate_groups: [${group}], quorum: { need: 2, exclude_requester: true } }
  - id: done
    acts:
      - { uses: acts.core.msg, key: signed }
`;
}

test('2 of 3 approve: each vote is seen live by the others; the second decides the task', async ({ page, browser, adminApi, signInAs }) => {
  test.setTimeout(150_000);
  const group = uniqueName('board');
  await adminApi.groups.create.mutate({ name: group, description: 'e2e board' });
  const bo = await signInAs(['operator']);
  const cy = await createUser({ roles: ['operator'] });
  const dee = await createUser({ roles: ['operator'] });
  const requester = await createUser({ roles: ['operator'] });
  for (const user of [bo, cy, dee, requester]) await adminApi.groups.addMember.mutate({ name: group, user: user.name });
  const id = uniqueName('contract');
  await deployModel(model(id, group));
  const { pid } = await startProcess(id, {}, requester.api);
  const title = `Sign contract ${id}?`;

  const pages: Record<string, Page> = { bo: page, cy: await pageOf(browser, cy), dee: await pageOf(browser, dee) };
  for (const name of ['bo', 'cy', 'dee']) {
    await pages[name].goto('/inbox');
    await tab(pages[name], "My groups'").click();
    await expect(taskRow(pages[name], title).getByTestId('row-votes')).toHaveText('0 of 2 approved');
    await taskRow(pages[name], title).click();
    await expect(pages[name].getByTestId('vote-progress')).toHaveText('0 of 2 approved');
    // no claim, no single answer: votes decide it
    await expect(pages[name].getByRole('group', { name: 'Who works on it' })).toHaveCount(0);
    await expect(pages[name].getByRole('form', { name: 'Task answer' })).toBeHidden();
  }

  const votes = (p: Page) => p.getByRole('group', { name: 'Votes' });
  const asker = await pageOf(browser, requester);
  await asker.goto('/inbox');
  await taskRow(asker, title).click();
  await expect(votes(asker)).toContainText('You asked for this approval, so the others decide (four eyes).');
  await expect(votes(asker).getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await votes(page).getByLabel('Comment (optional)').fill('terms are fine');
  await votes(page).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(votes(page).getByText('You approved this task; each person votes once.')).toBeVisible();
  await expect(votes(page).getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(asker.getByTestId('vote-progress')).toHaveText('1 of 2 approved');
  for (const name of ['cy', 'dee']) {
    await expect(pages[name].getByTestId('vote-progress')).toHaveText('1 of 2 approved');
    await expect(pages[name].getByTestId('vote')).toHaveText([`${bo.name} approved: “terms are fine”`]);
    await expect(taskRow(pages[name], title).getByTestId('row-votes')).toHaveText('1 of 2 approved');
  }
  await screenshot(pages.cy, 'inbox-votes');
  // the requester follows on the run page: the act's badge and its history
  await asker.goto(`/runs/${pid}`);
  await expect(asker.getByTestId('votes-act:sign_it')).toHaveText('1 of 2 approved', { timeout: 15_000 });
  await asker.getByTestId('node-act:sign_it').click();
  await expect(asker.getByRole('list', { name: 'Task history' }).getByRole('listitem')).toHaveText([new RegExp(`${bo.name} approved it: “terms are fine”$`)]);
  await screenshot(asker, 'run-votes');

  await votes(pages.cy).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(pages.cy.getByRole('status').filter({ hasText: `Approved: ${title}` })).toBeVisible();
  await expect(pages.dee.getByTestId('task-closed')).toBeVisible();
  await expect(taskRow(pages.dee, title)).toHaveCount(0);
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  // seen live on the open run page
  await expect(asker.getByTestId('votes-act:sign_it')).toHaveText('2 of 2 approved', { timeout: 15_000 });
  await expect(asker.getByRole('list', { name: 'Task history' }).getByRole('listitem')).toHaveText([new RegExp(`${cy.name} approved it$`), new RegExp(`${bo.name} approved it: “terms are fine”$`)]);
  const task = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.key === 'sign' && t.kind === 'act')!;
  expect(task.outputs).toMatchObject({ outcome: 'approved', approved_by: [bo.name, cy.name] });

  // the run page: the act's badge and its history
  await pages.dee.goto(`/runs/${pid}`);
  await expect(pages.dee.getByTestId('votes-act:sign_it')).toHaveText('2 of 2 approved', { timeout: 15_000 });
  await pages.dee.getByTestId('node-act:sign_it').click();
  await expect(pages.dee.getByRole('list', { name: 'Task history' }).getByRole('listitem')).toHaveText([new RegExp(`${cy.name} approved it$`), new RegExp(`${bo.name} approved it: “terms are fine”$`)]);
});
