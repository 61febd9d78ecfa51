/**
 * Bulk decisions with one form (issue 15 item 6): tasks of one act ticked together show that
 * act's typed answer fields once; a wrong value is said in the server's sentence and nothing is
 * sent; the answer, once right, goes to every ticked task. Tasks of different acts are approved
 * without answers, and the bar says so.
 */
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

test('tasks of one act are answered together with one typed form; tasks of different acts without', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  const me = await signInAs(['operator']);
  const id = uniqueName('bulkform');
  await deployModel(`id: ${id}
name: Bulk form ${id}
steps:
  - id: s
    acts:
      - uses: acts.core.irq
        key: ok
        params:
          title: 'Refund {{ n }} ${id}'
          candidate_users: [${me.name}]
          schema:
            required: [reason]
            properties:
              reason: { enum: [damaged, late, other], title: Reason }
              nights: { type: integer, title: Nights }
        outputs: { reason: null, nights: null }
`);
  await deployModel(`id: ${id}-other
name: Other ${id}
steps:
  - { id: s, acts: [ { uses: acts.core.irq, key: ok, params: { title: 'Other ${id}', candidate_users: [${me.name}] } } ] }
`);
  const pids: string[] = [];
  for (let n = 0; n < 3; n++) pids.push((await startProcess(id, { n })).pid);
  const other = (await startProcess(`${id}-other`)).pid;

  await page.goto('/inbox');
  const tick = (title: string) => page.getByRole('checkbox', { name: `Select ${title}` });
  const bar = page.getByRole('group', { name: 'Decide the selected tasks' });
  for (let n = 0; n < 3; n++) await tick(`Refund ${n} ${id}`).click();
  const answer = bar.getByRole('group', { name: 'One answer for the selected tasks' });
  await expect(answer.getByLabel('Reason')).toBeVisible();
  // a wrong value: the server's sentence, nothing sent
  await answer.getByLabel('Reason').selectOption('late');
  await answer.getByLabel('Nights').fill('2.5');
  await bar.getByRole('button', { name: 'Approve all' }).click();
  await expect(bar.getByRole('alert')).toHaveText('Nights must be a whole number.');
  expect((await adminApi.processes.list.query({ mid: id, state: 'completed', limit: 1 })).count).toBe(0);
  await answer.getByLabel('Nights').fill('2');
  await bar.getByRole('button', { name: 'Approve all' }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('3 decided.');
  for (const pid of pids) {
    await expect.poll(async () => (await adminApi.processes.get.query({ pid })).variables).toMatchObject({ reason: 'late', nights: 2 });
  }

  // tasks of two acts: no answer fields, and the bar says why
  const again = (await startProcess(id, { n: 9 })).pid;
  await tick(`Refund 9 ${id}`).click();
  await tick(`Other ${id}`).click();
  await expect(bar).toContainText('The selected tasks are of different steps');
  await expect(bar.getByRole('group', { name: 'One answer for the selected tasks' })).toHaveCount(0);
  await bar.getByRole('button', { name: 'Approve all' }).click();
  await expect(page.getByTestId('bulk-result')).toContainText('1 decided, 1 not:');
  // the refund's required reason was not given: refused with its code, the other approved
  await expect(page.getByTestId('bulk-result')).toContainText(again);
  await expect.poll(async () => (await adminApi.processes.state.query({ pid: other })).state).toBe('completed');
});
