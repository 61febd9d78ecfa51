/**
 * Every signed-in page at tablet size (820×1180 portrait, 1180×820 landscape): no horizontal page
 * overflow, no table cell or control cut off, and the page's heading and primary controls in view;
 * and in the dark (and light) theme the main text — body, heading, description, and every other
 * text of the page — reads with a WCAG contrast ratio of at least 4.5:1 (3:1 for large text).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { chooseTheme, screenshot } from './helpers/browser.ts';
import { deployModel, startProcess, uniqueName } from './helpers/scene.ts';
import { expect, test } from './helpers/test.ts';

interface Scene {
  mid: string;
  pid: string;
  title: string;
}

interface StudioPage {
  name: string;
  path: (scene: Scene) => string;
  heading: string;
  /** The controls a user comes to the page for; each must be visible without scrolling sideways. */
  controls: (page: Page, scene: Scene) => Locator[];
  /** What shows the page has its data (checked before measuring). */
  ready?: (page: Page, scene: Scene) => Locator | Locator[];
  /** What a user does first on the page (measured afterwards), e.g. opening a task. */
  use?: (page: Page, scene: Scene) => Promise<void>;
}

const taskRow = (page: Page, scene: Scene) => page.getByRole('list', { name: 'Tasks waiting for you' }).getByRole('button').filter({ hasText: scene.title });

const PAGES: StudioPage[] = [
  {
    name: 'overview',
    path: () => '/',
    heading: 'Overview',
    controls: (page) => [page.getByRole('heading', { name: /^Runs in the last 24 hours/ }), page.getByRole('heading', { name: /^Tasks waiting for you/ })],
    ready: (page) => page.getByTestId('waiting-count').filter({ hasText: /\d/ }),
  },
  {
    name: 'models',
    path: () => '/models',
    heading: 'Models',
    controls: (page) => [page.getByRole('button', { name: 'New workflow' }), page.getByRole('button', { name: 'Import YAML' })],
    ready: (page) => page.getByRole('table').getByRole('row').nth(1),
  },
  {
    name: 'designer',
    path: (scene) => `/models/${scene.mid}`,
    heading: 'Designer',
    controls: (page) => [page.getByTestId('deploy-button'), page.getByRole('button', { name: 'Run', exact: true }), page.getByTestId('yaml-editor')],
    // the graph is drawn and the model checked (the deploy button no longer says "checking…")
    ready: (page) => [page.getByTestId('node-step:manager'), page.getByRole('button', { name: 'Deploy', exact: true })],
  },
  {
    name: 'runs',
    path: () => '/runs',
    heading: 'Runs',
    controls: (page) => [page.getByLabel('Model'), page.getByLabel('State'), page.getByRole('table', { name: 'Runs' })],
    ready: (page, scene) => page.locator(`[role="row"][data-pid="${scene.pid}"]`),
  },
  {
    name: 'run',
    path: (scene) => `/runs/${scene.pid}`,
    heading: 'Run',
    controls: (page) => [page.getByTestId('run-graph'), page.getByRole('button', { name: 'Abort run' }), page.getByRole('button', { name: 'Set variables' })],
    ready: (page) => page.getByTestId('node-step:manager').and(page.locator('[data-state]')),
  },
  {
    name: 'inbox',
    path: () => '/inbox',
    heading: 'Inbox',
    controls: (page) => [page.getByRole('list', { name: 'Tasks waiting for you' }), page.getByTestId('task-form').getByRole('button', { name: 'Approve' })],
    ready: (page, scene) => taskRow(page, scene),
    use: async (page, scene) => {
      await taskRow(page, scene).click();
      await expect(page.getByTestId('task-form').getByRole('heading', { name: scene.title })).toBeVisible();
    },
  },
  {
    name: 'schedules',
    path: () => '/schedules',
    heading: 'Schedules',
    controls: (page) => [page.getByRole('table', { name: 'Triggers' }).or(page.getByText('No trigger'))],
  },
  {
    name: 'health',
    path: () => '/health',
    heading: 'Health',
    controls: (page) => [page.getByTestId('metric-queue-depth')],
  },
  {
    name: 'users',
    path: () => '/admin/users',
    heading: 'Users',
    controls: (page) => [page.getByRole('button', { name: 'Add user' }), page.getByLabel('New user name')],
  },
  {
    name: 'account',
    path: () => '/admin/account',
    heading: 'Your account',
    controls: (page) => [page.getByRole('button', { name: 'Change password' }), page.getByLabel('Current password')],
  },
];

const TABLET = [
  { name: 'portrait', width: 820, height: 1180 },
  { name: 'landscape', width: 1180, height: 820 },
] as const;

let scene: Scene;

test.beforeAll(async () => {
  const example = await readFile(path.resolve(import.meta.dirname, '../examples/approval-chain.yml'), 'utf8');
  const mid = uniqueName('layout');
  await deployModel(example.replace(/^id: approval-chain$/m, `id: ${mid}`));
  const amount = Math.floor(Math.random() * 1e6);
  const { pid } = await startProcess(mid, { amount, requester: 'tablet' });
  scene = { mid, pid, title: `Approve ${amount} for tablet?` };
});

async function open(page: Page, target: StudioPage): Promise<void> {
  await page.goto(target.path(scene));
  await expect(page.getByRole('heading', { level: 1, name: target.heading, exact: true })).toBeVisible();
  for (const ready of [target.ready?.(page, scene) ?? []].flat()) await expect(ready).toBeVisible();
}

/** How far the page scrolls sideways, and the widest elements sticking out of the viewport (for the message). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} right=${Math.round(el.getBoundingClientRect().right)}`);
    // a table cell sticking out of its row, or content sticking out of its cell (e.g. a badge over the next column)
    const right = (el: Element) => el.getBoundingClientRect().right;
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${el.textContent?.trim().slice(0, 20)}"`;
    const cells = [...document.querySelectorAll('main [role="row"], main tr')].flatMap((row) =>
      [...row.children]
        .filter((cell) => cell.checkVisibility() && (right(cell) > right(row) + 1 || [...cell.children].some((c) => c.checkVisibility() && right(c) > right(cell) + 1)))
        .map(name),
    );
    // a control cut off sideways by a box that clips or scrolls (graph canvas and code editor aside)
    const clipper = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return up;
      return null;
    };
    const cut = [...document.querySelectorAll('main :is(button, a, input, select, textarea)')].filter((control) => {
      const box = clipper(control);
      if (!box || !control.checkVisibility() || control.closest('.react-flow, .cm-editor, [type="hidden"]')) return false;
      const [c, b] = [control.getBoundingClientRect(), box.getBoundingClientRect()];
      return c.width > 0 && (c.left < b.left + box.clientLeft - 1 || c.right > b.left + box.clientLeft + box.clientWidth + 1);
    }).map(name);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide, cells, cut };
  });
}

/**
 * WCAG contrast ratios against what is behind the text (backgrounds composited up the tree): the
 * body, the page heading and its description, and every other visible text in the page's main
 * area below its threshold (4.5:1, or 3:1 for large text; disabled controls are exempt).
 */
function contrasts(page: Page) {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): number[] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], below: number[]) => top.slice(0, 3).map((c, i) => c * top[3] + below[i] * (1 - top[3]));
    const background = (el: Element): number[] => {
      const layers: number[][] = [];
      for (let node: Element | null = el; node; node = node.parentElement) layers.push(rgba(getComputedStyle(node).backgroundColor));
      return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255]);
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (el: Element | null) => {
      if (!el) return 0;
      const bg = background(el);
      const fg = over(rgba(getComputedStyle(el).color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
    };
    const low = new Set<string>();
    for (const el of document.querySelectorAll('main *')) {
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!hasText || !el.checkVisibility() || el.closest(':disabled, [aria-disabled="true"]')) continue;
      const style = getComputedStyle(el);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const r = ratio(el);
      if (r < (large ? 3 : 4.5)) low.add(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${el.textContent!.trim().slice(0, 30)}" ${r}:1`);
    }
    const h1 = document.querySelector('main h1');
    return { main: { body: ratio(document.body), heading: ratio(h1), description: ratio(h1?.nextElementSibling ?? null) }, low: [...low] };
  });
}

for (const size of TABLET) {
  test(`every page fits a ${size.name} tablet (${size.width}×${size.height}) with its heading and primary controls in view`, async ({ page, signInAs }) => {
    // every page in one test: 30 s is too little on a loaded machine (34 s seen in a full run)
    test.setTimeout(90_000);
    await signInAs('admin');
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const target of PAGES) {
      await test.step(target.name, async () => {
        await open(page, target);
        await target.use?.(page, scene);
        for (const control of target.controls(page, scene)) {
          await expect(control, `${target.name}: a primary control`).toBeVisible();
          const box = (await control.boundingBox())!;
          expect(box.x + box.width, `${target.name}: ${control} ends inside the viewport`).toBeLessThanOrEqual(size.width + 1);
        }
        const measured = await overflow(page);
        expect(measured.scrollWidth, `${target.name} scrolls sideways: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.clientWidth + 1);
        expect(measured.cells, `${target.name}: table cells that do not fit`).toEqual([]);
        expect(measured.cut, `${target.name}: controls cut off`).toEqual([]);
        if (size.name === 'portrait' && (target.name === 'designer' || target.name === 'inbox')) await screenshot(page, `tablet-${target.name}`);
      });
    }
  });
}

for (const theme of ['dark', 'light'] as const) {
  test(`in the ${theme} theme the main text of every page reads with a contrast of at least 4.5:1`, async ({ page, context, signInAs }) => {
    test.setTimeout(90_000);
    await chooseTheme(context, theme);
    await signInAs('admin');
    for (const target of PAGES) {
      await test.step(target.name, async () => {
        await open(page, target);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const { main, low } = await contrasts(page);
        for (const [what, ratio] of Object.entries(main)) expect(ratio, `${target.name}: ${what} text contrast`).toBeGreaterThanOrEqual(4.5);
        expect(low, `${target.name}: texts below their contrast threshold`).toEqual([]);
        if (theme === 'dark' && target.name === 'run') {
          // with a selected node: its ring shows over the running step's blue border
          await page.getByTestId('node-step:manager').click();
          await expect(page.getByTestId('node-step:manager')).toHaveAttribute('data-selected', 'true');
          await screenshot(page, 'dark-run');
        }
      });
    }
  });
}
