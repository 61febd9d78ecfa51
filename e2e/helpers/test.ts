/**
 * Playwright's `test` with the studio's fixtures, for page specs:
 *   import { test, expect } from './helpers/test.ts';
 *   test('…', async ({ page, adminApi, signInAs }) => {
 *     await signInAs(['operator']);            // a new operator, signed in in this page's context
 *     const { id } = await deployModel({ example: 'approval-chain.yml' });
 *     await page.goto('/inbox');
 *   });
 */
import { test as base } from '@playwright/test';
import type { Role } from '../../server/auth/types.ts';
import { adminSession, type Api, type Session } from './api.ts';
import { useSession } from './browser.ts';
import { createUser } from './scene.ts';

export { expect } from '@playwright/test';

export interface StudioFixtures {
  /** The admin's typed API client (to set the scene). */
  adminApi: Api;
  /** Signs the page's context in: `'admin'`, or a new user with these roles. Returns the session. */
  signInAs: (who: 'admin' | Role[]) => Promise<Session>;
}

export const test = base.extend<StudioFixtures>({
  adminApi: async ({}, use) => {
    await use((await adminSession()).api);
  },
  signInAs: async ({ context }, use) => {
    await use(async (who) => {
      const session = who === 'admin' ? await adminSession() : await createUser({ roles: who });
      await useSession(context, session);
      return session;
    });
  },
});
