/** The inbox as the team specs use it: a tab, a task's row by its title, and a member's own browser. */
import type { Browser, Page } from '@playwright/test';
import type { Session } from './api.ts';
import { useSession } from './browser.ts';

/** An inbox tab by its name ("Mine", "My groups'", "All I may see"). */
export const inboxTab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });

/** A task's row in the inbox list, by (a part of) its title. */
export const taskRow = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(title.replace(/[?]/g, '\\?')) });

/** A page in a browser context of its own, signed in as `session`'s user. */
export async function pageOf(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext();
  await useSession(context, session);
  return context.newPage();
}
