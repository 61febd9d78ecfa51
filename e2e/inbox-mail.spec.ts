/**
 * Inbox notifications (issue: the operator inbox for real teams, item 7), in Chromium against the
 * e2e server (`npm start` with ACTS_SMTP_URL pointing at a real SMTP server this test starts on
 * 127.0.0.1): an operator with an address signs in; a task offered to them raises the Inbox
 * badge live and is e-mailed; its Approve link, opened in a browser that is signed in as no one,
 * asks to confirm, answers the task (the run completes, the badge drops back live), and opened
 * again says it was used and changes nothing.
 */
import type { Page } from '@playwright/test';
import { linksOf, startSmtpPeer, type SmtpPeer } from '../test/helpers/smtp-peer.ts';
import { screenshot } from './helpers/browser.ts';
import { E2E_SMTP_PORT } from './helpers/env.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

const model = (id: string, user: string) => `id: ${id}
name: Mail ${id}
steps:
  - id: sign
    acts:
      - { uses: acts.core.irq, key: sign, params: { title: 'Sign ${id}?', candidate_users: [${user}] } }
`;

/** The badge's number (0 when it is not shown). */
async function badge(page: Page): Promise<number> {
  const shown = page.getByRole('navigation').getByTestId('inbox-badge');
  return (await shown.count()) === 0 ? 0 : Number(await shown.textContent());
}

let smtp: SmtpPeer;
test.beforeAll(async () => {
  smtp = await startSmtpPeer(E2E_SMTP_PORT);
});
test.afterAll(async () => {
  await smtp?.close();
});

test('a task is e-mailed; its link answers it once (a second use is refused); the badge counts live', async ({ page, browser, adminApi, signInAs }) => {
  test.setTimeout(60_000);
  const me = await signInAs(['operator']);
  const user = (await adminApi.users.list.query({})).rows.find((u) => u.name === me.name)!;
  await adminApi.users.setEmail.mutate({ id: user.id, email: `${me.name}@example.com` });
  const id = uniqueName('mail');
  await deployModel(model(id, me.name));

  // the badge counts what the API counts for me (tasks of the suite's other tests come and go
  // meanwhile: those offered to every operator count too), whether or not this run's task is open
  const counted = async (pid: string, open: boolean) => {
    const [mine, groups] = await Promise.all(['mine', 'groups'].map((view) => me.api.inbox.list.query({ view: view as 'mine' | 'groups', offset: 0, limit: 200 })));
    const listed = [...mine.rows, ...groups.rows].some((r) => r.pid === pid);
    const shown = await badge(page);
    return listed === open && shown === mine.count + groups.count ? 'agree' : JSON.stringify({ listed, badge: shown, mine: mine.count, groups: groups.count });
  };
  await page.goto('/runs');
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await expect.poll(() => page.getByRole('navigation').getByRole('link', { name: 'Inbox', exact: true }).count()).toBe(1);
  const { pid } = await startProcess(id);
  await expect.poll(() => counted(pid, true), { timeout: 15_000 }).toBe('agree');
  await expect(page.getByRole('navigation').getByTestId('inbox-badge')).toBeVisible();

  const mine = () => smtp.mails.find((m) => m.to.includes(`${me.name}@example.com`) && m.body.includes(pid));
  await expect.poll(() => mine() !== undefined, { timeout: 20_000 }).toBe(true);
  const mail = mine()!;
  expect(mail.subject).toBe(`[acts] New task: Sign ${id}? - Mail ${id}`);
  const approve = linksOf(mail).get('Approve')!;
  expect(approve.startsWith(`${new URL(page.url()).origin}/mail/act/`)).toBe(true);

  // a browser signed in as no one: the link asks first (GET changes nothing), then answers
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(approve);
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText(`Approve: Sign ${id}?`);
  expect((await adminApi.processes.state.query({ pid })).state).toBe('running');
  await screenshot(stranger, 'mail-link-confirm');
  await stranger.getByRole('button', { name: 'Approve' }).click();
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText('Answer recorded');
  await expect.poll(async () => (await adminApi.processes.state.query({ pid })).state).toBe('completed');
  await expect.poll(() => counted(pid, false), { timeout: 15_000 }).toBe('agree');

  // the same link again: refused, nothing changed
  await stranger.goto(approve);
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText('Nothing changed');
  await expect(stranger.locator('main')).toHaveAttribute('data-code', 'link.used');
  await expect(stranger.getByText('This link was used already')).toBeVisible();
  const entry = (await adminApi.audit.query.query({ action: 'task.mail_link', limit: 1 })).rows[0];
  expect(entry).toMatchObject({ actor_name: me.name, target: expect.stringContaining(pid), result: 'ok' });
});
