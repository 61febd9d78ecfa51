/** The plain ready line (server/http/ready-line.ts): the URL a browser on this machine opens. */
import { expect, it } from 'vitest';
import { readyLine } from '../server/http/ready-line.ts';

it('names the address it listens on, the loopback one when it listens everywhere, and whether the studio is on', () => {
  expect(readyLine({ address: '127.0.0.1', port: 3000 }, true)).toBe('acts-studio is ready: open http://127.0.0.1:3000 — the studio and its API\n');
  expect(readyLine({ address: '0.0.0.0', port: 8080 }, true)).toBe('acts-studio is ready: open http://127.0.0.1:8080 — the studio and its API, listening on every interface\n');
  expect(readyLine({ address: '::', port: 8080 }, false)).toBe('acts-studio is ready: open http://127.0.0.1:8080 — the API (the studio is off: ACTS_STUDIO), listening on every interface\n');
  expect(readyLine({ address: '::1', port: 3000 }, true)).toBe('acts-studio is ready: open http://[::1]:3000 — the studio and its API\n');
});
