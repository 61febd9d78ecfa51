/**
 * Long runs (issue 17, item 7): an 18-stage run waiting at stage 14 opens on its active region,
 * legible (not the whole chain squeezed into a sliver); the view follows the active node as the run
 * advances, until the user pans (then a button brings following back); the finished stretch before
 * the active stage is collapsed into one "12 steps done" node that takes in the steps that finish
 * while the view follows the run, and expands and collapses again; the
 * graph switches to left-to-right; the timeline's durations tick while tasks run and stop when they
 * end; after an abort the header says how long the run took instead of "still running".
 */
import type { Locator, Page } from '@playwright/test';
import { formatDuration } from '../components/runs/format.ts';
import type { Api } from './helpers/api.ts';
import { screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

// a run page under a loaded machine takes seconds to paint; each test opens one or two
test.describe.configure({ timeout: 60_000 });

const STAGES = 18;
/** Stages that wait for a person; every other stage sets a variable and moves on. */
const WAITS = new Set([14, 17]);

function longModel(id: string): string {
  const lines = [`id: ${id}`, 'name: Eighteen stages', 'steps:'];
  for (let i = 1; i <= STAGES; i++) {
    const act = WAITS.has(i) ? `{ id: a${i}, uses: acts.core.irq, key: ask${i} }` : `{ id: a${i}, uses: acts.transform.set, params: { v${i}: ${i} } }`;
    lines.push(`  - id: s${i}`, `    name: Stage ${i}`, '    acts:', `      - ${act}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Starts a run of the long model and waits until it waits at `ask14`; returns its pid. */
async function runAtStage14(api: Api): Promise<string> {
  const mid = uniqueName('long-run');
  await deployModel(longModel(mid));
  const { pid } = await startProcess(mid);
  await expect.poll(async () => (await api.processes.get.query({ pid })).tasks.find((t) => t.key === 'ask14')?.state, { timeout: 20_000 }).toBe('interrupted');
  return pid;
}

async function complete(api: Api, pid: string, key: string): Promise<void> {
  const { tasks } = await api.processes.get.query({ pid });
  const task = tasks.find((t) => t.key === key && t.state === 'interrupted');
  if (!task) throw new Error(`no open '${key}' task`);
  await api.tasks.complete.mutate({ pid, tid: task.tid, options: {} });
}

/** Whether `node` lies wholly inside the canvas, and how wide it is drawn (px). */
async function shown(page: Page, node: Locator): Promise<{ inside: boolean; width: number }> {
  const pane = await page.getByTestId('run-graph').locator('.react-flow').boundingBox();
  const box = (await node.count()) ? await node.boundingBox() : null;
  if (!pane || !box) return { inside: false, width: 0 };
  const inside = box.x >= pane.x && box.y >= pane.y && box.x + box.width <= pane.x + pane.width && box.y + box.height <= pane.y + pane.height;
  return { inside, width: Math.round(box.width) };
}

/** How long a run page may take to show its graph on a busy machine (it is the first wait of each test). */
const FIRST_PAINT_MS = 15_000;

const node = (page: Page, id: string) => page.getByTestId('run-graph').getByTestId(`node-${id}`);

/** `850 ms`, `12.4 s`, `3 min 5 s` → ms. */
function durationMs(text: string): number {
  const ms = /^(\d+) ms$/.exec(text);
  if (ms) return Number(ms[1]);
  const s = /^([\d.]+) s$/.exec(text);
  if (s) return Number(s[1]) * 1000;
  const min = /^(\d+) min (\d+) s$/.exec(text);
  if (min) return Number(min[1]) * 60_000 + Number(min[2]) * 1000;
  return NaN;
}

test('a long run opens on its active stage, legible, and the view follows it until the user pans or zooms', async ({ page, adminApi, signInAs }) => {
  const pid = await runAtStage14(adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  await expect(node(page, 'act:a14')).toHaveAttribute('data-state', 'interrupted', { timeout: FIRST_PAINT_MS });
  // in view and drawn at least at 0.7 of its size (the whole chain fitted would be ~0.12)
  await expect.poll(() => shown(page, node(page, 'act:a14'))).toEqual({ inside: true, width: expect.any(Number) });
  expect((await shown(page, node(page, 'act:a14'))).width).toBeGreaterThanOrEqual(150);
  expect((await shown(page, node(page, 'act:a17'))).inside).toBe(false);

  const follow = page.getByRole('button', { name: 'Follow the active step' });
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await complete(adminApi, pid, 'ask14');
  await expect(node(page, 'act:a17')).toHaveAttribute('data-state', 'interrupted');
  await expect.poll(async () => (await shown(page, node(page, 'act:a17'))).inside).toBe(true);

  // the user drags the view away: following stops, and the button brings the active stage back
  const pane = (await page.getByTestId('run-graph').locator('.react-flow').boundingBox())!;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height - 20);
  await page.mouse.down();
  await page.mouse.move(pane.x + pane.width / 2, pane.y + 60, { steps: 8 });
  await page.mouse.move(pane.x + pane.width / 2, pane.y + 20, { steps: 4 });
  await page.mouse.up();
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await shown(page, node(page, 'act:a17'))).inside).toBe(false);
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await shown(page, node(page, 'act:a17'))).inside).toBe(true);
  // a zoom button moves the view as the user asked: following stops too
  await page.getByTestId('run-graph').locator('.react-flow__controls-zoomout').click();
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await adminApi.processes.abort.mutate({ pid }); // the suite's later specs share the inbox
});

test('the finished stretch is collapsed into one node, which grows as the run goes on, expands and collapses again', async ({ page, adminApi, signInAs }) => {
  const pid = await runAtStage14(adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  const opened = page.getByTestId('run-graph').getByRole('button', { name: /12 steps done/ });
  await expect(opened).toBeVisible({ timeout: FIRST_PAINT_MS });
  await expect(node(page, 'step:s1')).toHaveCount(0);
  await expect(node(page, 'step:s13')).toHaveAttribute('data-state', 'completed'); // the step before the active one stays, as context
  // while the view follows the run, the fold takes in the steps that finish (14 and 15; 16 stays as context)
  await complete(adminApi, pid, 'ask14');
  const stretch = page.getByTestId('run-graph').getByRole('button', { name: /15 steps done/ });
  await expect(stretch).toBeVisible();
  await expect(node(page, 'step:s13')).toHaveCount(0);
  await expect(node(page, 'step:s16')).toHaveAttribute('data-state', 'completed');
  await expect(node(page, 'act:a17')).toHaveAttribute('data-state', 'interrupted');
  await screenshot(page, 'run-long');
  // it sits above the active stage, outside the view: reach it with the keyboard
  await stretch.focus();
  await page.keyboard.press('Enter');
  await expect(stretch).toHaveCount(0);
  await expect(node(page, 'step:s1')).toHaveAttribute('data-state', 'completed');
  await page.getByRole('button', { name: 'Collapse finished steps' }).click();
  await expect(stretch).toBeVisible();
  await expect(node(page, 'step:s1')).toHaveCount(0);
  await adminApi.processes.abort.mutate({ pid });
});

test('the run graph switches to left-to-right and keeps the choice', async ({ page, adminApi, signInAs }) => {
  const pid = await runAtStage14(adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  const step = node(page, 'step:s14');
  const act = node(page, 'act:a14');
  await expect(act).toBeVisible({ timeout: FIRST_PAINT_MS });
  const leftToRight = page.getByRole('button', { name: 'Left to right' });
  await expect(leftToRight).toHaveAttribute('aria-pressed', 'false');
  const at = async () => {
    const [a, b] = [(await step.boundingBox())!, (await act.boundingBox())!];
    return { dx: Math.round(b.x + b.width / 2 - (a.x + a.width / 2)), dy: Math.round(b.y + b.height / 2 - (a.y + a.height / 2)) };
  };
  // top to bottom once the first layout settled (the view may still be gliding to the active step)
  await expect.poll(async () => Math.abs((await at()).dx)).toBeLessThan(2);
  expect((await at()).dy).toBeGreaterThan(30);
  await leftToRight.click();
  await expect(leftToRight).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await at()).dx).toBeGreaterThan(30);
  // once the view stopped gliding to the active step (its zoom moves the boxes meanwhile)
  await expect.poll(async () => Math.abs((await at()).dy)).toBeLessThan(2);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Left to right' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await at()).dx).toBeGreaterThan(30);
  await page.getByRole('button', { name: 'Left to right' }).click(); // back to the default for the other specs
  await expect(page.getByRole('button', { name: 'Left to right' })).toHaveAttribute('aria-pressed', 'false');
  await adminApi.processes.abort.mutate({ pid });
});

test('running tasks tick in the timeline and stop when they end', async ({ page, adminApi, signInAs }) => {
  const pid = await runAtStage14(adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  const took = page.getByTestId('run-timeline').locator('[data-key="t:$"] > span:last-child'); // the workflow's own task, the first row
  await expect(took).not.toHaveText('', { timeout: FIRST_PAINT_MS });
  const first = durationMs((await took.textContent()) ?? '');
  expect(first).toBeGreaterThanOrEqual(0);
  await expect.poll(async () => durationMs((await took.textContent()) ?? ''), { timeout: 10_000 }).toBeGreaterThan(first + 1000);
  await expect(page.getByTestId('run-times')).toContainText(/running for \d/);

  await adminApi.processes.abort.mutate({ pid });
  await expect(page.getByTestId('run-state')).toContainText('Aborted');
  // the workflow's duration is its recorded one, no longer ticking
  const ended = (await adminApi.processes.get.query({ pid })).tasks.find((t) => t.tid === '$')!;
  expect(ended.end_time).toBeGreaterThan(0);
  await expect(took).toHaveText(formatDuration(ended.start_time, ended.end_time));
});

test('after an abort the header says how long the run took, not "still running"', async ({ page, adminApi, signInAs }) => {
  const pid = await runAtStage14(adminApi);
  await signInAs(['operator']);
  await page.goto(`/runs/${pid}`);
  await expect(page.getByRole('button', { name: 'Abort run' })).toBeVisible({ timeout: FIRST_PAINT_MS });
  await page.getByRole('button', { name: 'Abort run' }).click();
  await page.getByRole('button', { name: 'Yes, abort' }).click();
  await expect(page.getByTestId('run-state')).toContainText('Aborted');
  await expect(page.getByText(/ · took \d/)).toBeVisible();
  await expect(page.getByText('still running')).toHaveCount(0);
});
