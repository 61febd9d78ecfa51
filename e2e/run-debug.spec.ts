/**
 * Debugging runs on the run page (issue 14 items 3 and 4): a breakpoint set from the page stops
 * the run before its node; variables are edited while it is paused, step over runs the node and
 * stops at the next, resume finishes the run; a SIGKILLed server's run is still paused after the
 * restart; an incident (an act failing with no catch) is retried after fixing a variable and the
 * run completes; a finished run is re-run from a step, and the two runs link to each other.
 */
import type { Page } from '@playwright/test';
import type { Api } from './helpers/api.ts';
import { signInApi } from './helpers/api.ts';
import { screenshot, useSession } from './helpers/browser.ts';
import { startExtraServer } from './helpers/extra-server.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

function line(id: string): string {
  return `id: ${id}
name: Debug me
inputs: { n: 1 }
steps:
  - { id: ask, acts: [ { uses: acts.core.irq, key: ask } ] }
  - { id: double, acts: [ { id: calc, uses: acts.transform.code, params: "return { doubled: n * 2 }" } ] }
  - { id: report, acts: [ { uses: acts.core.irq, key: report } ] }
`;
}

function flaky(id: string): string {
  return `id: ${id}
name: Flaky
incidents: true
inputs: { ok: false }
steps:
  - { id: check, acts: [ { id: guard, uses: acts.transform.code, params: "if (!ok) throw new Error('the ledger is closed'); return { checked: true }" } ] }
`;
}

/** Completes the open irq task of `key` once the run reached it. */
async function complete(api: Api, pid: string, key: string): Promise<void> {
  let tid: string | undefined;
  await expect
    .poll(async () => (tid = (await api.processes.get.query({ pid })).tasks.find((t) => t.key === key && t.state === 'interrupted')?.tid), { timeout: 20_000 })
    .toBeTruthy();
  await api.tasks.complete.mutate({ pid, tid: tid!, options: {} });
}

const runState = (page: Page) => page.getByTestId('run-state');
/** The first paint of a run page on a loaded machine. */
const FIRST_PAINT = { timeout: 30_000 };

test.describe('debugging a run', () => {
  test('a breakpoint stops the run; edit a variable, step over, resume', async ({ page, signInAs, adminApi }) => {
    const id = uniqueName('debug');
    await deployModel(line(id));
    const { pid } = await startProcess(id, { n: 4 });
    await signInAs('admin');
    await page.goto(`/runs/${pid}`);
    const breakpoints = page.getByTestId('run-breakpoints');
    await expect(breakpoints).toBeVisible(FIRST_PAINT);
    await breakpoints.getByLabel('Node to stop before').selectOption('double');
    await breakpoints.getByRole('button', { name: 'Add breakpoint' }).click();
    await expect(breakpoints.getByText('double', { exact: true })).toBeVisible();

    await complete(adminApi, pid, 'ask');
    const paused = page.getByTestId('run-paused');
    await expect(paused).toContainText('Paused at the breakpoint on double');
    await paused.getByRole('button', { name: 'Show the node on the graph' }).click();
    await expect(page.getByTestId('task-details')).toContainText('double');
    await screenshot(page, 'run-breakpoint');

    await page.getByRole('button', { name: 'Set variables' }).click();
    await page.getByLabel('Variables (a JSON object)').fill('{"n": 21}');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect(page.getByLabel('Variables (a JSON object)')).toBeHidden();

    await paused.getByRole('button', { name: 'Step over' }).click();
    await expect(paused).toContainText('Paused after a step, before report starts');
    const calc = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.nid === 'calc');
    expect(calc?.outputs).toEqual({ doubled: 42 });

    await paused.getByRole('button', { name: 'Resume' }).click();
    await expect(paused).toBeHidden();
    await complete(adminApi, pid, 'report');
    await expect(runState(page)).toContainText(/completed/i);
    const audit = await adminApi.audit.query.query({ target: pid, offset: 0, limit: 50 });
    expect(audit.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['proc.set_breakpoints', 'proc.step_over', 'proc.resume']));
  });

  test('an incident is retried after fixing a variable, and the run completes', async ({ page, signInAs }) => {
    const id = uniqueName('flaky');
    await deployModel(flaky(id));
    const { pid } = await startProcess(id);
    await signInAs('admin');
    await page.goto(`/runs/${pid}`);
    const incident = page.getByTestId('run-incident');
    await expect(incident).toContainText('the ledger is closed', FIRST_PAINT);
    await expect(runState(page)).toContainText(/running/i);
    await screenshot(page, 'run-incident');
    await incident.getByLabel('Set variables first (optional, a JSON object)').fill('{"ok": true}');
    await incident.getByRole('button', { name: 'Retry the act' }).click();
    await expect(incident).toBeHidden(FIRST_PAINT);
    await expect(runState(page)).toContainText(/completed/i, FIRST_PAINT);
  });

  test('a finished run is re-run from a step; the runs link to each other', async ({ page, signInAs, adminApi }) => {
    const id = uniqueName('rerun');
    await deployModel(line(id));
    const { pid } = await startProcess(id, { n: 5 });
    await complete(adminApi, pid, 'ask');
    await complete(adminApi, pid, 'report');
    await signInAs('admin');
    await page.goto(`/runs/${pid}`);
    await expect(runState(page)).toContainText(/completed/i, FIRST_PAINT);
    await page.getByLabel('Step to re-run from').selectOption('double');
    await page.getByRole('button', { name: 'Re-run', exact: true }).click();
    await page.getByTestId('run-rerun-started').getByRole('link').click();
    await expect(page.getByTestId('run-rerun-links')).toContainText(`Re-runs ${pid} from double`, FIRST_PAINT);
    const rerun = page.url().split('/runs/')[1];
    const detail = await adminApi.processes.get.query({ pid: rerun });
    expect(detail.tasks.map((t) => t.nid)).not.toContain('ask');
    expect(detail.tasks.find((t) => t.nid === 'calc')?.outputs).toEqual({ doubled: 10 });
    await page.getByTestId('run-rerun-links').getByRole('link', { name: pid }).click();
    await expect(page.getByTestId('run-rerun-links')).toContainText(rerun, FIRST_PAINT);
  });

  test('a run paused when its server is killed is still paused after the restart', async ({ page, context }) => {
    test.setTimeout(300_000);
    const admin = { ACTS_ADMIN_PASSWORD: 'debug-admin-password' };
    const first = await startExtraServer(admin, { timeoutMs: 120_000 });
    let second: Awaited<ReturnType<typeof startExtraServer>> | undefined;
    try {
      const { api } = await signInApi('admin', 'debug-admin-password', first.url);
      const id = uniqueName('crash');
      await api.models.deploy.mutate({ source: line(id) });
      const { pid } = await api.processes.start.mutate({ mid: id, inputs: {} });
      await api.control.pause.mutate({ pid });
      await complete(api, pid, 'ask');
      await first.crash();
      second = await startExtraServer(admin, { databaseUrl: first.databaseUrl, timeoutMs: 120_000 });
      const session = await signInApi('admin', 'debug-admin-password', second.url);
      await useSession(context, session, second.url);
      await page.goto(`${second.url}/runs/${pid}`);
      const paused = page.getByTestId('run-paused');
      await expect(paused).toContainText('Paused by an operator', FIRST_PAINT);
      const stillWaiting = await session.api.processes.get.query({ pid });
      expect(stillWaiting.tasks.filter((t) => t.nid === 'double').map((t) => t.state)).toEqual(['none']);
      await paused.getByRole('button', { name: 'Resume' }).click();
      await expect(paused).toBeHidden();
      await expect.poll(async () => (await session.api.processes.get.query({ pid })).tasks.find((t) => t.nid === 'calc')?.state).toBe('completed');
    } finally {
      await second?.stop();
      await first.stop();
    }
  });
});
