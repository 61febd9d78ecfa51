/**
 * A stuck process in the studio, on a server of its own whose SQLite file holds a process that
 * nothing can move (helpers/make-stuck-scene.ts damages its rows before the server starts; the
 * server's first tick finds it): the runs list marks it Stuck and its filter finds it, the run
 * page says why and what to do, the Health page counts it and links to it; aborting it clears it.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { StuckScene } from '../test/helpers/stuck-scene.ts';
import { signInApi } from './helpers/api.ts';
import { useSession } from './helpers/browser.ts';
import { ADMIN } from './helpers/env.ts';
import { startExtraServer } from './helpers/extra-server.ts';
import { expect, test } from './helpers/test.ts';

const MAKE_SCENE = path.join(import.meta.dirname, 'helpers/make-stuck-scene.ts');

function makeScene(databaseUrl: string): StuckScene {
  const out = execFileSync(process.execPath, ['--import', 'tsx', MAKE_SCENE, databaseUrl], { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '..') });
  return JSON.parse(out.trim().split('\n').at(-1)!) as StuckScene;
}

test('a stuck process: Stuck badge and filter in the runs list, the run page explains it, the Health page counts and links it', async ({ page, context }) => {
  test.setTimeout(60_000);
  let scene!: StuckScene;
  const server = await startExtraServer({ ACTS_ADMIN_PASSWORD: ADMIN.password, ACTS_TICK_INTERVAL_SECS: '1' }, { prepare: (url) => void (scene = makeScene(url)) });
  try {
    const admin = await signInApi(ADMIN.name, ADMIN.password, server.url);
    // the server's first tick finds it and marks its row
    await expect.poll(async () => (await admin.api.processes.list.query({ stuck: true })).rows.map((r) => r.pid), { timeout: 10_000 }).toEqual([scene.stuck]);
    await useSession(context, admin, server.url);

    await page.goto(`${server.url}/runs`);
    const stuckRow = page.locator(`[role="row"][data-pid="${scene.stuck}"]`);
    const healthyRow = page.locator(`[role="row"][data-pid="${scene.healthy}"]`);
    await expect(stuckRow.getByTestId('stuck-badge')).toHaveText('Stuck');
    await expect(healthyRow).toBeVisible();
    await expect(healthyRow.getByTestId('stuck-badge')).toHaveCount(0);
    // a click, then the state: the list re-renders from the URL, so `check()`'s own instant test would race it
    await page.getByLabel('Stuck only').click();
    await expect(page.getByLabel('Stuck only')).toBeChecked();
    await expect(page).toHaveURL(`${server.url}/runs?stuck=1`);
    await expect(healthyRow).toHaveCount(0);
    await expect(page.locator('[role="row"][data-pid]')).toHaveCount(1);
    await page.reload();
    await expect(page.getByLabel('Stuck only')).toBeChecked();
    await expect(stuckRow).toBeVisible();

    await stuckRow.getByRole('link').click();
    await expect(page).toHaveURL(`${server.url}/runs/${scene.stuck}`);
    await expect(page.getByTestId('run-stuck')).toContainText(/^StuckNothing can move this process — .* — since .+; abort it\.$/);

    await page.goto(`${server.url}/health`);
    const card = page.getByRole('region', { name: 'Stuck processes' });
    await expect(card).toHaveAttribute('data-tone', 'bad');
    await expect(page.getByTestId('metric-stuck-processes')).toHaveText('1');
    await card.getByRole('link', { name: scene.stuck }).click();
    await expect(page).toHaveURL(`${server.url}/runs/${scene.stuck}`);

    await page.getByRole('button', { name: 'Abort run' }).click();
    await page.getByRole('button', { name: 'Yes, abort' }).click();
    await expect(page.getByTestId('run-state')).toContainText('Aborted');
    await expect(page.getByTestId('run-stuck')).toHaveCount(0);
    await page.goto(`${server.url}/health`);
    await expect(page.getByTestId('metric-stuck-processes')).toHaveText('0');
    await expect(page.getByRole('region', { name: 'Stuck processes' })).toHaveAttribute('data-tone', 'ok');
  } finally {
    await server.stop();
  }
});
