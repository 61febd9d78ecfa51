/**
 * What the e2e server is started with (playwright.config.ts) and what helpers sign in with.
 * The port and the data directory are chosen once by the runner and inherited by its workers
 * through the environment, so every process agrees on them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ADMIN = { name: 'admin', password: 'e2e-admin-password' } as const;

/** A TCP port free right now on 127.0.0.1 (synchronous, so the config can use it). */
export function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

process.env.ACTS_E2E_PORT ??= String(freePort());
process.env.ACTS_E2E_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'acts-e2e-'));
process.env.ACTS_E2E_SMTP_PORT ??= String(freePort());

export const E2E_PORT = Number(process.env.ACTS_E2E_PORT);
export const E2E_DIR = process.env.ACTS_E2E_DIR;
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Where the server sends notification e-mails; e2e/inbox-mail.spec.ts listens there with a real SMTP server while it runs. */
export const E2E_SMTP_PORT = Number(process.env.ACTS_E2E_SMTP_PORT);
