/**
 * Sortable row ids (issue 12): generated pids and the ids of messages, deliveries and outbox
 * records start with the time they were made, so rows written together are appended to their
 * primary keys instead of landing on a random page each — on SQLite and PostgreSQL the order of
 * the ids must be the order of their times.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PID_LENGTH, ROW_ID_LENGTH, sortableId } from '../server/engine/model/ids.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { PG_ADMIN_URL } from './helpers/databases.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

const ALPHABET = /^[0-9a-zA-Z]+$/;

/** Ids made at times spread over decades (and many within one millisecond), shuffled. */
function idsOverTime(): Array<{ at: number; id: string }> {
  const times = [1_000_000_000_000, 1_700_000_000_000, 1_700_000_000_001, 1_796_000_000_000, 2_500_000_000_000];
  const made = times.flatMap((at) => Array.from({ length: 20 }, () => ({ at, id: sortableId(ROW_ID_LENGTH, at) })));
  return made.sort(() => Math.random() - 0.5);
}

/** The times of `sorted` ids, in the order the database sorted them. */
function timesIn(sorted: string[], made: Array<{ at: number; id: string }>): number[] {
  const at = new Map(made.map((m) => [m.id, m.at]));
  return sorted.map((id) => at.get(id)!);
}

const ascending = (times: number[]): boolean => times.every((t, i) => i === 0 || times[i - 1] <= t);

describe('sortableId', () => {
  it('is the time in base 36, then random characters, at the length asked', () => {
    const id = sortableId(PID_LENGTH, 1_796_311_703_212);
    expect(id).toHaveLength(21);
    expect(id).toMatch(ALPHABET);
    expect(parseInt(id.slice(0, 9), 36)).toBe(1_796_311_703_212);
    expect(sortableId(ROW_ID_LENGTH)).toHaveLength(25);
    // many ids of one millisecond are all different
    expect(new Set(Array.from({ length: 5000 }, () => sortableId(PID_LENGTH, 5))).size).toBe(5000);
  });

  it('leaves ids too short to spare the time random throughout', () => {
    const prefix = Date.now().toString(36).padStart(9, '0').slice(0, 6);
    const short = Array.from({ length: 50 }, () => sortableId(12));
    for (const id of short) expect(id).toMatch(/^[0-9a-zA-Z]{12}$/);
    expect(short.filter((id) => id.startsWith(prefix)).length).toBeLessThan(50);
  });

  it('sorts by time in JavaScript, in SQLite and in PostgreSQL', async () => {
    const made = idsOverTime();
    const ids = made.map((m) => m.id);
    expect(ascending(timesIn([...ids].sort(), made))).toBe(true);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-ids-'));
    const db = new Database(path.join(dir, 'ids.db'));
    try {
      db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
      const insert = db.prepare('INSERT INTO t (id) VALUES (?)');
      for (const id of ids) insert.run(id);
      const sorted = db.prepare('SELECT id FROM t ORDER BY id').pluck().all() as string[];
      expect(ascending(timesIn(sorted, made))).toBe(true);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }

    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      // the server's default collation, which the product's databases get
      const { rows } = await client.query<{ id: string }>('SELECT id FROM unnest($1::text[]) AS id ORDER BY id', [ids]);
      expect(ascending(timesIn(rows.map((r) => r.id), made))).toBe(true);
    } finally {
      await client.end();
    }
  });
});

describe('the engine', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('gives generated pids and the messages of a run sortable ids', async () => {
    const store = new MemoryStore();
    h = await createHarness({ store });
    await h.deploy('id: two\nsteps: [ { id: a, acts: [ { uses: acts.transform.set, params: { x: 1 } } ] }, { id: b } ]');
    const before = Date.now();
    const pid = await h.start('two');
    expect(pid).toHaveLength(PID_LENGTH);
    expect(parseInt(pid.slice(0, 9), 36)).toBeGreaterThanOrEqual(before);
    await h.settle();
    // the messages in the order they were emitted; the rows the store keeps of them (their ends:
    // stored-messages.ts) are stored under the ids they were emitted with
    const emitted = h.messages.filter((m) => m.pid === pid);
    expect(emitted.length).toBeGreaterThan(3);
    const stored = (await store.messages.query()).rows.filter((row) => row.pid === pid);
    expect(stored.length).toBeGreaterThan(1);
    const byId = new Map(emitted.map((m) => [m.id, m]));
    for (const row of stored) expect(byId.get(row.id)).toMatchObject({ tid: row.tid, state: row.state });
    for (const m of emitted) expect(m.id).toHaveLength(ROW_ID_LENGTH);
    // emitted one after another: the times their ids begin with never go back
    expect(ascending(emitted.map((m) => parseInt(m.id.slice(0, 9), 36)))).toBe(true);
  });
});
