/**
 * Browser tests in Debian's chromium (no browser download): `npm run e2e`. The web server is
 * `npm start` (its prestart builds the studio when needed) on a free port with a fresh SQLite
 * file in a temp dir and the admin of e2e/helpers/env.ts. One worker: the tests share the server.
 */
import { defineConfig } from '@playwright/test';
import crypto from 'node:crypto';
import path from 'node:path';
import { ADMIN, BASE_URL, E2E_DIR, E2E_PORT, E2E_SMTP_PORT } from './e2e/helpers/env.ts';

export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ],
};

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  globalTeardown: './e2e/helpers/teardown.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'npm start',
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(E2E_DIR, 'acts.db')}`,
      ACTS_ADMIN_PASSWORD: ADMIN.password,
      // the e2e database is new on every run, so a new key each time (e2e/secrets.spec.ts)
      ACTS_SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      // notification e-mails go to the SMTP server e2e/inbox-mail.spec.ts starts (only its users have addresses)
      ACTS_SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      ACTS_PUBLIC_URL: BASE_URL,
      NEXT_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
