/**
 * openStore: URL handling, migrations applied at open (once, even with two openers at a time),
 * the committed schemas and the column map agreeing with prisma/models.prisma.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import { COLLECTION_NAMES, TABLES } from '../server/store/columns.ts';
import { localMigrations } from '../server/store/migrate.ts';
import { DEFAULT_STORE_URL, defaultStoreUrl, openStore, parseStoreUrl } from '../server/store/open-store.ts';
import { REPO_ROOT } from '../server/store/schema-engine.mjs';
import { PG_ADMIN_URL, SQL_BACKENDS, createTestDatabase } from './helpers/databases.ts';
import { samples, task } from './helpers/store-samples.ts';

async function openError(url: string): Promise<ActError> {
  try {
    const store = await openStore(url);
    await store.close();
  } catch (err) {
    expect(ActError.is(err), String(err)).toBe(true);
    return err as ActError;
  }
  throw new Error(`openStore('${url}') should have failed`);
}

describe('store urls', () => {
  it('defaults to DATABASE_URL, else file:./data/acts.db', () => {
    expect(DEFAULT_STORE_URL).toBe('file:./data/acts.db');
    expect(defaultStoreUrl({})).toBe('file:./data/acts.db');
    expect(defaultStoreUrl({ DATABASE_URL: '  ' })).toBe('file:./data/acts.db');
    expect(defaultStoreUrl({ DATABASE_URL: 'postgresql://u@h/db' })).toBe('postgresql://u@h/db');
  });

  it('names the backend of each accepted form', () => {
    expect(parseStoreUrl('memory:')).toEqual({ backend: 'memory' });
    expect(parseStoreUrl('file:./data/x.db')).toEqual({ backend: 'sqlite', file: path.resolve('data/x.db') });
    expect(parseStoreUrl('file:///tmp/a/x.db')).toEqual({ backend: 'sqlite', file: '/tmp/a/x.db' });
    expect(parseStoreUrl('postgres://u@h:5433/db')).toEqual({ backend: 'postgresql', url: 'postgres://u@h:5433/db' });
    expect(parseStoreUrl('postgresql://u:p@h/db?sslmode=disable').backend).toBe('postgresql');
  });

  it('rejects bad urls with a clear error that never shows a password', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /invalid store url '': empty/],
      ['mysql://u@h/db', /invalid store url 'mysql:\/\/u@h\/db': unknown scheme \(expected memory:, file:<path>, postgres:\/\/ or postgresql:\/\/\)/],
      ['./data/acts.db', /unknown scheme/],
      ['file:', /no database file path after file:/],
      ['file::memory:', /use memory:/],
      ['file:./x.db?mode=ro', /query parameters are not supported/],
      ['postgresql://u@h', /no database name/],
      ['postgresql://u:hunter2@:5432/db', /invalid store url/],
    ];
    for (const [url, message] of cases) {
      const err = await openError(url);
      expect(err.code).toBe('config.invalid');
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain('hunter2');
    }
  });

  it('says which PostgreSQL it could not reach, without the password', async () => {
    const err = await openError('postgresql://postgres:hunter2@127.0.0.1:1/acts');
    expect(err.message).toMatch(/^cannot open the store at 'postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/acts'/);
    expect(err.message).not.toContain('hunter2');
    const missing = new URL(PG_ADMIN_URL);
    missing.pathname = '/acts_no_such_database';
    expect((await openError(missing.toString())).message).toMatch(/acts_no_such_database/);
  });

  it('opens an in-memory store for memory:', async () => {
    const store = await openStore('memory:');
    expect(store.backend).toBe('memory');
    await store.tasks.create(task('a', 'p1', 1));
    expect(await store.tasks.exists('a')).toBe(true);
    await store.close();
  });

  it('creates the directories of a SQLite file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-open-'));
    try {
      const file = path.join(dir, 'a', 'b', 'acts.db');
      const store = await openStore(`file:${file}`);
      expect(store.backend).toBe('sqlite');
      expect(fs.existsSync(file)).toBe(true);
      await store.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(SQL_BACKENDS)('%s migrations at open', (backend) => {
  it('applies every migration to an empty database once; a second open applies nothing', async () => {
    const db = await createTestDatabase(backend, { empty: true });
    try {
      const first = await openStore(db.url);
      expect(first.backend).toBe(backend);
      expect((first as unknown as { appliedMigrations: string[] }).appliedMigrations).toEqual(localMigrations(backend));
      for (const name of COLLECTION_NAMES) expect((await first[name].query()).count, name).toBe(0); // every table exists
      await first.ops.create(samples.ops('o1', 1));
      const second = await openStore(db.url); // while the first is still open
      expect((second as unknown as { appliedMigrations: string[] }).appliedMigrations).toEqual([]);
      expect(await second.ops.find('o1')).toEqual(samples.ops('o1', 1));
      await second.close();
      await first.close();
    } finally {
      await db.drop();
    }
  });
});

describe('postgresql migrations with two openers', () => {
  it('migrates once when two stores open an empty database at the same time', async () => {
    const db = await createTestDatabase('postgresql', { empty: true });
    try {
      const stores = await Promise.all([openStore(db.url), openStore(db.url)]);
      const applied = stores.map((s) => (s as unknown as { appliedMigrations: string[] }).appliedMigrations);
      expect([...applied[0], ...applied[1]].sort()).toEqual(localMigrations('postgresql'));
      await stores[0].tasks.create(task('a', 'p1', 1));
      expect(await stores[1].tasks.exists('a')).toBe(true);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await db.drop();
    }
  });
});

/** model name → field → { type, optional, json } from prisma/models.prisma. */
function parseModels(text: string): Map<string, Map<string, { type: string; optional: boolean; json: boolean }>> {
  const models = new Map<string, Map<string, { type: string; optional: boolean; json: boolean }>>();
  for (const match of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const fields = new Map<string, { type: string; optional: boolean; json: boolean }>();
    for (const line of match[2].split('\n')) {
      const field = /^\s+(\w+)\s+(\w+)(\?)?/.exec(line);
      if (field && !line.trim().startsWith('@@')) fields.set(field[1], { type: field[2], optional: !!field[3], json: /\/\/ JSON/.test(line) });
    }
    const map = /@@map\("(\w+)"\)/.exec(match[2]);
    models.set(map ? map[1] : match[1], fields);
  }
  return models;
}

describe('schema files', () => {
  const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

  it('has a column map that agrees with prisma/models.prisma', () => {
    const models = parseModels(read('prisma/models.prisma'));
    const kindOf = (type: string, json: boolean) =>
      ({ String: json ? 'json' : 'string', Int: 'int', BigInt: 'time', Boolean: 'bool' })[type];
    expect([...models.keys()].sort()).toEqual(COLLECTION_NAMES.map((name) => TABLES[name].sqlName).sort());
    for (const name of COLLECTION_NAMES) {
      const table = TABLES[name];
      const fields = models.get(table.sqlName)!;
      expect([...fields.keys()].sort(), name).toEqual([...Object.keys(table.columns), 'seq'].sort());
      for (const [field, column] of Object.entries(table.columns)) {
        const declared = fields.get(field)!;
        expect({ field, kind: kindOf(declared.type, declared.json), nullable: declared.optional }, name).toEqual({ field, ...column });
      }
    }
  });

  it('has committed schemas generated from prisma/models.prisma, migrations for both providers', () => {
    const models = read('prisma/models.prisma');
    for (const provider of SQL_BACKENDS) {
      const schema = read(`prisma/${provider}/schema.prisma`);
      expect(schema).toContain(`provider = "${provider}"`);
      expect(schema.endsWith(models)).toBe(true);
      expect(localMigrations(provider).length).toBeGreaterThan(0);
    }
    expect(localMigrations('sqlite').map((m) => m.replace(/^\d+_/, ''))).toEqual(localMigrations('postgresql').map((m) => m.replace(/^\d+_/, '')));
  });

  it('stores PostgreSQL text in byte order (COLLATE "C"), like SQLite', () => {
    for (const name of localMigrations('postgresql')) {
      const sql = read(`prisma/postgresql/migrations/${name}/migration.sql`);
      expect(sql.match(/"\w+" TEXT(?! COLLATE "C")/g), name).toBeNull();
    }
  });
});
