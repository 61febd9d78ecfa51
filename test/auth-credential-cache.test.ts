/**
 * The credential cache of server/auth (credential-cache.ts): a session or API token used again is
 * resolved without reading its rows; every access change made through the auth takes effect at
 * once; a change made past it is seen within `credentialFreshMs`; and on PostgreSQL a change on
 * one server reaches another server's cache by notification (access-bus.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, type Auth, type AuthOptions } from '../server/auth/index.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';

const PASSWORD = 'correct horse battery';
const IP = '10.0.0.1';
/** Cheap argon2id costs: the tests check behaviour, not hashing strength. */
const CHEAP = { memoryCost: 256, timeCost: 1 };
/** A freshness bound no test waits out: only the auth's own invalidation can end an entry. */
const FOREVER = 3_600_000;

const databases: TestDatabase[] = [];
const stores: OpenedStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const db of databases) await db.drop();
});

async function storeOn(url: string): Promise<OpenedStore> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

async function freshStore(backend: (typeof BACKENDS)[number]): Promise<{ url: string; store: OpenedStore }> {
  const db = await createTestDatabase(backend);
  databases.push(db);
  return { url: db.url, store: await storeOn(db.url) };
}

/** Counts the reads of session, token and user rows through `store`. */
function countReads(store: OpenedStore): { reads: number } {
  const counter = { reads: 0 };
  for (const collection of [store.sessions, store.users] as Array<{ find: (id: string) => Promise<unknown> }>) {
    const find = collection.find.bind(collection);
    collection.find = (id: string) => {
      counter.reads++;
      return find(id);
    };
  }
  const byHash = store.serverQueries.tokenWithHash.bind(store.serverQueries);
  store.serverQueries.tokenWithHash = (hash: string) => {
    counter.reads++;
    return byHash(hash);
  };
  return counter;
}

const authOn = (store: OpenedStore, options: AuthOptions = {}): Auth => createAuth(store, { passwordHashing: CHEAP, credentialFreshMs: FOREVER, ...options });

describe.each(BACKENDS)('credential cache on %s', (backend) => {
  it('resolves a session or token used again without reading its rows', async () => {
    const { store } = await freshStore(backend);
    const auth = authOn(store);
    const root = await auth.setup('root', PASSWORD);
    const { token: session } = await auth.login('root', PASSWORD, IP);
    const { token } = await auth.tokens.create(root.id, 'script');
    const counter = countReads(store);
    expect(await auth.fromSession(session)).toMatchObject({ name: 'root', via: 'session' });
    expect(await auth.fromToken(token)).toMatchObject({ name: 'root', via: 'token' });
    const first = counter.reads;
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) {
      expect(await auth.fromSession(session)).toMatchObject({ name: 'root' });
      expect(await auth.fromToken(token)).toMatchObject({ name: 'root' });
    }
    expect(counter.reads).toBe(first);
  });

  it('takes a logout, a revocation, a role change, a password change and disabling at once', async () => {
    const { store } = await freshStore(backend);
    const auth = authOn(store);
    await auth.setup('root', PASSWORD);
    const bob = await auth.users.create('bob', PASSWORD, ['operator']);
    const login = async () => (await auth.login('bob', PASSWORD, IP)).token;

    const loggedOut = await login();
    expect(await auth.fromSession(loggedOut)).toMatchObject({ name: 'bob' });
    await auth.logout(loggedOut);
    expect(await auth.fromSession(loggedOut)).toBeNull();

    const { info, token } = await auth.tokens.create(bob.id, 'script');
    expect(await auth.fromToken(token)).toMatchObject({ name: 'bob' });
    await auth.tokens.revoke(info.id);
    expect(await auth.fromToken(token)).toBeNull();

    const session = await login();
    expect(await auth.fromSession(session)).toMatchObject({ roles: ['operator'] });
    await auth.users.setRoles(bob.id, ['designer']);
    expect(await auth.fromSession(session)).toMatchObject({ roles: ['designer'] });
    await auth.users.setPassword(bob.id, 'another good password');
    expect(await auth.fromSession(session)).toBeNull();

    const last = (await auth.login('bob', 'another good password', IP)).token;
    expect(await auth.fromSession(last)).toMatchObject({ name: 'bob' });
    await auth.users.setDisabled(bob.id, true);
    expect(await auth.fromSession(last)).toBeNull();
  });

  it('sees a change made past the auth once the entry is older than credentialFreshMs', async () => {
    const { store } = await freshStore(backend);
    const auth = authOn(store, { credentialFreshMs: 200 });
    await auth.setup('root', PASSWORD);
    const { token } = await auth.login('root', PASSWORD, IP);
    // the entry is read no earlier than now
    const read = performance.now();
    expect(await auth.fromSession(token)).toMatchObject({ name: 'root' });
    // written past the auth: no access change is told
    await store.serverQueries.deleteSessionsOfUser((await auth.users.list())[0].id);
    await eventually(async () => (await auth.fromSession(token)) === null, 'the deleted session no longer resolves', 250);
    expect(performance.now() - read).toBeGreaterThanOrEqual(200);
  });
});

describe('credential cache across servers (postgresql)', () => {
  it('a logout and disabling a user on one server reach the other server by notification', async () => {
    const { url, store } = await freshStore('postgresql');
    const a = authOn(store);
    const b = authOn(await storeOn(url));
    await a.setup('root', PASSWORD);
    const bob = await a.users.create('bob', PASSWORD, ['operator']);
    const first = (await a.login('bob', PASSWORD, IP)).token;
    const second = (await a.login('bob', PASSWORD, IP)).token;
    expect(await b.fromSession(first)).toMatchObject({ name: 'bob' });
    expect(await b.fromSession(second)).toMatchObject({ name: 'bob' });

    await a.logout(first);
    await eventually(async () => (await b.fromSession(first)) === null, 'server B refuses the logged-out session', 250);
    // the logout dropped every entry of bob's on B: cache the other session there again
    expect(await b.fromSession(second)).toMatchObject({ name: 'bob' });
    const changes: string[] = [];
    b.onAccessChange((change) => changes.push(change.reason));
    await a.users.setDisabled(bob.id, true);
    await eventually(async () => (await b.fromSession(second)) === null, "server B refuses the disabled user's session", 250);
    await eventually(() => changes.includes('user_disabled'), "server B's listeners hear of it", 250);
  });
});
