/**
 * `acts users list | email` run for real (`node bin/acts.mjs` as a child process) against a test
 * server: an admin lists the users (never a password hash), sets a user's e-mail address and
 * removes it; refusals exit with their codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actsAs } from './helpers/acts-cli.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;

/** `acts …args` as `who` against the test server. */
const acts = (who: string, args: string[]) => actsAs(t, who, args);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('acts users', () => {
  it('lists users, sets and removes an address; coded refusals', { timeout: 60_000 }, async () => {
    const list = (await acts('admin', ['users', 'list'])).lines;
    expect(list.map((u) => u.name)).toContain('alice');
    expect(list.every((u) => !('password_hash' in u) && 'email' in u)).toBe(true);
    expect((await acts('admin', ['users', 'email', 'alice', 'alice@example.com'])).lines).toMatchObject([{ name: 'alice', email: 'alice@example.com' }]);
    expect((await t.auth.users.named('alice')).email).toBe('alice@example.com');
    expect((await acts('admin', ['users', 'email', 'alice', '--none'])).lines).toMatchObject([{ name: 'alice', email: null }]);
    const bad = await acts('admin', ['users', 'email', 'alice', 'not-an-address']);
    expect([bad.code, bad.error?.code]).toEqual([2, 'input.invalid']);
    const neither = await acts('admin', ['users', 'email', 'alice']);
    expect([neither.code, neither.error?.code]).toEqual([2, 'usage.invalid']);
    const nobody = await acts('admin', ['users', 'email', 'nobody', 'x@example.com']);
    expect([nobody.code, nobody.error?.code]).toEqual([2, 'usage.invalid']);
    const denied = await acts('alice', ['users', 'email', 'alice', 'a@example.com']);
    expect([denied.code, denied.error?.code]).toEqual([5, 'auth.forbidden']);
  });
});
