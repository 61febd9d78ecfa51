/**
 * Typed forms (issue 15 item 4): the inbox draws an interrupt's answer fields by their declared
 * types — a date input, a select, a text area, a list of rows, a number, a file — checks them in
 * the browser with the same sentences the server gives, uploads the file before sending, and the
 * run's variables hold the values and the file's reference, which downloads from the run page. An
 * outcome that requires a comment asks for one first.
 */
import type { Page } from '@playwright/test';
import { screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function claimModel(id: string): string {
  return `id: ${id}
name: Claim ${id}
inputs: { amount: 120 }
steps:
  - id: claim
    name: Claim
    acts:
      - uses: acts.core.irq
        id: claim_act
        key: claim
        params:
          title: 'Claim {{ amount }}'
          schema:
            required: [due]
            properties:
              due: { type: string, format: date, title: Due date }
              priority: { enum: [low, normal, high], title: Priority }
              notes: { type: string, format: multiline, title: Notes }
              items: { type: array, items: { type: string }, title: Items }
              nights: { type: integer, title: Nights }
              receipt: { type: file, title: Receipt, maxBytes: 2048, accept: [application/pdf, text/plain] }
          outcomes:
            submit: { label: Submit }
            withdraw: { label: Withdraw, ecode: withdrawn, comment: required }
        outputs: { due: null, priority: normal, notes: '', items: [], nights: null, receipt: null }
  - id: check
    name: Check
    acts:
      - { uses: acts.core.irq, key: check, params: { title: 'Check {{ amount }}' } }
`;
}

const row = (page: Page, title: string) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: title });
const form = (page: Page) => page.getByTestId('task-form');
/** The claim act (its step has the same key). */
const claimAct = <T extends { kind: string; key: string }>(tasks: T[]) => tasks.filter((t) => t.kind === 'act' && t.key === 'claim');

let mid = '';
test.beforeAll(async () => {
  mid = (await deployModel(claimModel(uniqueName('claim')))).id;
});

/** Starts a claim (an amount of its own, so its title is unique) and opens its form in the inbox. */
async function openClaim(page: Page): Promise<{ pid: string; amount: number; title: string }> {
  await page.goto('/inbox');
  const amount = 100 + Math.floor(Math.random() * 100_000);
  const { pid } = await startProcess(mid, { amount });
  const title = `Claim ${amount}`;
  await row(page, title).click();
  await expect(form(page).getByRole('heading', { name: title })).toBeVisible();
  return { pid, amount, title };
}

test('a typed form with a file: checked in the browser as the server checks it, the file uploaded, the values in the run, the file downloads', async ({ page, adminApi, signInAs }) => {
  test.setTimeout(90_000);
  await signInAs(['operator']);
  const { pid, amount, title } = await openClaim(page);

  const f = form(page);
  await expect(f.getByLabel('Due date')).toHaveAttribute('type', 'date');
  await f.getByLabel('Due date').fill('2026-12-31');
  await f.getByLabel('Priority').selectOption('high');
  await f.getByLabel('Notes').fill('Taxi to the airport\nHotel, two nights');
  const items = f.getByRole('group', { name: 'Items' });
  await items.getByLabel('Items row 1').fill('taxi');
  await items.getByRole('button', { name: 'Add row' }).click();
  await items.getByLabel('Items row 2').fill('hotel');
  await f.getByLabel('Nights').fill('2.5');
  const receipt = f.getByLabel('Receipt');
  await receipt.setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3000, 37) });

  // the browser says what is wrong, in the sentences the server gives, and sends nothing
  const decision = f.getByRole('group', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Submit', exact: true }).click();
  const alert = f.getByRole('alert');
  await expect(alert).toHaveText('Nights must be a whole number. Receipt is larger than 2 KiB.');
  await expect(f.getByLabel('Nights')).toHaveAttribute('aria-invalid', 'true');
  await expect(f.getByLabel('Nights')).toBeFocused();
  await screenshot(page, 'inbox-typed-form');
  const tid = claimAct((await adminApi.processes.get.query({ pid })).tasks)[0].tid;
  const server = await adminApi.tasks.outcome.mutate({ pid, tid, options: { outcome: 'submit', due: '2026-12-31', nights: 2.5 } }).catch((err: { message: string }) => err.message);
  expect(server).toBe('Nights must be a whole number.');
  const upload = await page.evaluate(
    async ([p, t]) => {
      const res = await fetch(`/api/files/${p}/${t}?field=receipt&name=big.pdf`, { method: 'POST', headers: { 'x-acts-csrf': '1', 'content-type': 'application/pdf' }, body: new Uint8Array(3000) });
      return ((await res.json()) as { error: { message: string } }).error.message;
    },
    [pid, tid],
  );
  expect(upload).toBe('Receipt is larger than 2 KiB.');
  expect(claimAct((await adminApi.processes.get.query({ pid })).tasks).map((t) => t.state)).toEqual(['interrupted']);

  // corrected, it goes: the file is uploaded first, then the answer
  await f.getByLabel('Nights').fill('2');
  const pdf = Buffer.from('%PDF-1.4\n% a small receipt\n');
  await receipt.setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(f.getByTestId('chosen-file')).toHaveText(`receipt.pdf (${pdf.length} bytes)`);
  await expect(f.getByLabel('Nights')).not.toHaveAttribute('aria-invalid', 'true');
  await decision.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Answered: ${title}` })).toBeVisible();
  await expect(row(page, title)).toHaveCount(0);

  const { variables } = await adminApi.processes.get.query({ pid });
  expect(variables).toMatchObject({
    due: '2026-12-31',
    priority: 'high',
    notes: 'Taxi to the airport\nHotel, two nights',
    items: ['taxi', 'hotel'],
    nights: 2,
    outcome: 'submit',
    receipt: { name: 'receipt.pdf', size: pdf.length, type: 'application/pdf' },
  });
  const ref = variables.receipt as { file: string };

  // the next task shows the file in its context; the run page downloads it
  await row(page, `Check ${amount}`).click();
  await expect(form(page).getByRole('region', { name: 'Run context' }).getByRole('link', { name: 'receipt.pdf' })).toHaveAttribute('href', `/api/files/${ref.file}`);
  await page.goto(`/runs/${pid}`);
  await page.getByTestId('node-act:claim_act').click();
  const outputs = page.getByRole('region', { name: 'Outputs' });
  const downloading = page.waitForEvent('download');
  await outputs.getByRole('link', { name: 'receipt.pdf' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('receipt.pdf');
  const saved = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of saved) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
  await adminApi.processes.abort.mutate({ pid }); // the suite's later specs share this inbox
});

test('an outcome that requires a comment asks for it before it sends', async ({ page, adminApi, signInAs }) => {
  await signInAs(['operator']);
  const { pid, title } = await openClaim(page);
  await form(page).getByRole('group', { name: 'Decision' }).getByRole('button', { name: 'Withdraw', exact: true }).click();
  const panel = form(page).getByRole('group', { name: 'Withdraw: comment' });
  await expect(panel.getByLabel('Comment')).toBeFocused();
  await panel.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(panel.getByRole('alert')).toHaveText('Withdraw needs a comment: say why in a few words.');
  await expect(row(page, title)).toHaveCount(1);
  await panel.getByLabel('Comment').fill('Booked twice');
  await panel.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Answered: ${title}` })).toBeVisible();
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  const { process, tasks } = await adminApi.processes.get.query({ pid });
  expect(process.outcome).toBe('withdraw');
  expect(claimAct(tasks)[0]).toMatchObject({ data: { comment: 'Booked twice' }, err: { ecode: 'withdrawn', message: 'Booked twice' } });
});

test("the designer's property form offers the field types: a file's size and media types, a list's rows, a string's format", async ({ page, signInAs }) => {
  await signInAs(['designer']);
  await page.goto(`/models/${mid}`);
  await page.getByTestId('node-act:claim_act').click();
  const properties = page.getByRole('form', { name: /^Properties of/ });
  const receipt = properties.getByRole('group', { name: 'Field receipt' });
  const type = receipt.getByLabel('Type', { exact: true });
  await expect(type).toHaveValue('file');
  await expect(type.locator('option')).toHaveText(['(not set)', 'string', 'number', 'integer', 'boolean', 'array', 'file']);
  await expect(receipt.getByLabel('Largest file (bytes)')).toHaveValue('2048');
  await expect(receipt.getByLabel(/^File types/)).toHaveValue('application/pdf, text/plain');
  await expect(properties.getByRole('group', { name: 'Field due' }).getByLabel('Format', { exact: true })).toHaveValue('date');
  await expect(properties.getByRole('group', { name: 'Field items' }).getByLabel('Row type', { exact: true })).toHaveValue('string');
  // a type chosen goes into the YAML
  await properties.getByRole('group', { name: 'Field notes' }).getByLabel('Format', { exact: true }).selectOption('date');
  await expect(page.getByTestId('yaml-editor')).toContainText(/notes:\s*type: string\s*format: date\s*title: Notes/);
});
