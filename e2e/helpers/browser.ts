/** Browser-side helpers: signing in through the form or by cookie, and screenshots for the README. */
import type { BrowserContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import path from 'node:path';
import { signInApi, type Session } from './api.ts';
import { ADMIN, BASE_URL } from './env.ts';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

/**
 * Signs in through the /login form (opened unless the page is on it already, e.g. after a
 * redirect with `?next=`) and waits for the page it lands on (default `/`).
 */
export async function signIn(page: Page, name: string = ADMIN.name, password: string = ADMIN.password, landing = '/'): Promise<void> {
  if (new URL(page.url(), BASE_URL).pathname !== '/login') await page.goto('/login');
  await page.getByLabel('User name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new URL(landing, BASE_URL).href);
  await expect(page.getByTestId('user-name')).toHaveText(name);
}

/** Puts a session cookie in the context (no form): the fast way for tests about other pages (of the shared server, or the one at `baseUrl`). */
export async function useSession(context: BrowserContext, session: Session, baseUrl: string = BASE_URL): Promise<void> {
  await context.addCookies([{ name: 'acts_session', value: session.token, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
}

/** Signs `name` in by cookie (API login). */
export async function signInByCookie(context: BrowserContext, name: string = ADMIN.name, password: string = ADMIN.password): Promise<Session> {
  const session = await signInApi(name, password);
  await useSession(context, session);
  return session;
}

/** Writes e2e/screenshots/<name>.png of the viewport (or the full page). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return file;
}

/** Sets the theme the studio remembers (before the page loads), for screenshots of both themes. */
export async function chooseTheme(context: BrowserContext, theme: 'light' | 'dark'): Promise<void> {
  await context.addInitScript((value) => window.localStorage.setItem('acts-theme', value), theme);
}
