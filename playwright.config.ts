// Browser tests arrive with the studio issue; this file fixes the layout and the launch options
// (Debian's chromium, no browser download) so the e2e suite has one place to start from.
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

export default { testDir: './e2e' };
