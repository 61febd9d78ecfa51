#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is installed for the browser tests (Playwright cannot download
 * browsers on these machines). Installs it with apt-get when missing and this user may; otherwise
 * says how. Idempotent: does nothing when /usr/bin/chromium exists.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!root || !hasApt) {
    console.error(`the browser tests need Debian's Chromium at ${CHROMIUM}: install it with \`sudo apt-get install -y chromium\``);
    process.exit(1);
  }
  console.log('installing Debian chromium for the browser tests (apt-get install -y chromium)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit', shell: '/bin/bash' });
}
