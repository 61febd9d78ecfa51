/** The studio shell: signing in and out, navigation to every page, themes, live status, roles. */
import { expect, test } from '@playwright/test';
import { NAV_ITEMS } from '../components/shell/nav-items.ts';
import { chooseTheme, screenshot, signIn, signInByCookie, useSession } from './helpers/browser.ts';
import { ADMIN, BASE_URL } from './helpers/env.ts';
import { startExtraServer } from './helpers/extra-server.ts';
import { createUser, uniqueName } from './helpers/scene.ts';

test.describe('signing in', () => {
  test('a wrong password shows the error; the right one lands on the overview', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(`${BASE_URL}/login`);
    await page.getByLabel('User name').fill(ADMIN.name);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'do not match' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByLabel('Password')).toBeFocused();
    await screenshot(page, 'login-error');

    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByTestId('user-name')).toHaveText(ADMIN.name);
  });

  test('a page opened while signed out comes back after signing in', async ({ page }) => {
    await page.goto('/runs?state=running');
    await expect(page).toHaveURL(`${BASE_URL}/login?next=${encodeURIComponent('/runs?state=running')}`);
    await signIn(page, ADMIN.name, ADMIN.password, '/runs?state=running');
    await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  });

  test('too many failures say when to try again', async ({ page }) => {
    const name = uniqueName('nobody');
    for (let i = 0; i < 5; i++) {
      await fetch(`${BASE_URL}/api/trpc/auth.login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' },
        body: JSON.stringify({ name, password: 'wrong-password' }),
      });
    }
    await page.goto('/login');
    await page.getByLabel('User name').fill(name);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /Too many failed sign-ins\. You can try again in \d+ s\./ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });

  test('without an admin, visitors are sent to /setup, which creates one and signs them in', async ({ page }) => {
    const server = await startExtraServer();
    try {
      await page.goto(`${server.url}/runs`);
      await expect(page).toHaveURL(`${server.url}/setup`);
      await expect(page.getByRole('heading', { name: 'Create the first admin' })).toBeVisible();
      await page.getByLabel('Admin user name').fill('root');
      await page.getByLabel('Password', { exact: true }).fill('first-admin-password');
      await page.getByLabel('Repeat the password').fill('first-admin-passw0rd');
      await page.getByRole('button', { name: 'Create admin and sign in' }).click();
      await expect(page.getByText('The two passwords differ.')).toBeVisible();
      await page.getByLabel('Repeat the password').fill('first-admin-password');
      await page.getByRole('button', { name: 'Create admin and sign in' }).click();
      await expect(page).toHaveURL(`${server.url}/`);
      await expect(page.getByTestId('user-name')).toHaveText('root');
    } finally {
      await server.stop();
    }
  });

  test('the setup page is closed once an admin exists', async ({ page }) => {
    await page.goto('/setup');
    await expect(page.getByRole('heading', { name: 'Setup is done' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the sign-in page' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/login`);
  });
});

test.describe('signed in', () => {
  test('every page opens from the navigation', async ({ page, context }) => {
    await signInByCookie(context);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Pages' });
    for (const item of NAV_ITEMS) {
      await nav.getByRole('link', { name: item.label }).click();
      await expect(page).toHaveURL(`${BASE_URL}${item.href}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.label);
      await expect(nav.getByRole('link', { name: item.label })).toHaveAttribute('aria-current', 'page');
    }
  });

  test('the live indicator connects', async ({ page, context }) => {
    await signInByCookie(context);
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  });

  test('the theme toggle switches, is remembered, and applies before the first paint', async ({ page, context }) => {
    await signInByCookie(context);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await background()).not.toBe(light);

    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForLoadState('domcontentloaded');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await background()).toBe(light);
  });

  test('the system theme applies until the user chooses one', async ({ page, context }) => {
    await signInByCookie(context);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  });

  test('signing out returns to the sign-in page and ends the session', async ({ page, context }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/login`);
    await page.goto('/models');
    await expect(page).toHaveURL(/\/login\?next=%2Fmodels$/);
    expect((await context.cookies()).find((c) => c.name === 'acts_session')?.value ?? '').toBe('');
  });

  test('a viewer sees no admin page and is told which role it needs', async ({ page, context }) => {
    const viewer = await createUser({ roles: ['viewer'] });
    await useSession(context, viewer);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await expect(nav.getByRole('link', { name: 'Runs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Inbox' })).toHaveCount(0);
    await page.goto('/admin/users');
    await expect(page.getByText('This page is not open to your roles')).toBeVisible();
    await expect(page.getByText('It needs one of the roles admin.')).toBeVisible();
  });

  test('screenshots of the shell in both themes', async ({ browser }) => {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await chooseTheme(context, theme);
      await signInByCookie(context);
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
      await screenshot(page, `overview-${theme}`);
      await context.close();
    }
  });

  test('at tablet width the navigation is an icon rail that keeps its names', async ({ page, context }) => {
    await signInByCookie(context);
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await expect(nav.getByRole('link', { name: 'Runs' })).toBeVisible();
    expect((await nav.getByRole('link', { name: 'Runs' }).boundingBox())!.width).toBeLessThan(60);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await screenshot(page, 'overview-tablet');
  });
});

test('the sign-in page at tablet width', async ({ page }) => {
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await screenshot(page, 'login-tablet');
});
