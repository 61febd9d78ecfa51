/**
 * server/audit on every backend: record and query (newest first, filters, time range, paging),
 * detail redaction (no password/token/secret keys at any depth) and truncation to 4 KiB.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { boundDetail, createAuditLog, MAX_DETAIL_BYTES, type AuditEntry, type AuditLog } from '../server/audit/index.ts';
import { ManualClock } from '../server/engine/clock.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';

const T0 = 1_700_000_000_000;

const entry = (action: string, target: string, extra: Partial<AuditEntry> = {}) => ({
  actor: 'u1',
  actor_name: 'ann',
  action,
  target,
  detail: { n: 1 },
  result: 'ok',
  ...extra,
});

describe.each(BACKENDS)('audit log on %s', (backend) => {
  const store = useTestStore(backend);
  let clock: ManualClock;
  let audit: AuditLog;

  beforeEach(() => {
    clock = new ManualClock(T0);
    audit = createAuditLog(store(), clock);
  });

  it('records who, when, what and the result, and returns entries newest first', async () => {
    await audit.record(entry('model.deploy', 'm1'));
    clock.advance(1000);
    await audit.record(entry('proc.start', 'p1', { result: 'model.not_found' }));
    await audit.record(entry('proc.start', 'p2')); // same millisecond: recording order decides
    const { count, rows } = await audit.query({});
    expect(count).toBe(3);
    expect(rows.map((r) => r.target)).toEqual(['p2', 'p1', 'm1']);
    expect(rows[1]).toEqual({
      id: rows[1].id,
      time: T0 + 1000,
      actor: 'u1',
      actor_name: 'ann',
      action: 'proc.start',
      target: 'p1',
      detail: { n: 1 },
      result: 'model.not_found',
    });
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
  });

  it('writes entries recorded at the same time together, each caller hearing of its own', async () => {
    const queries = store().serverQueries;
    const insert = queries.insertAuditEntries.bind(queries);
    const writes: number[] = [];
    let fail = false;
    queries.insertAuditEntries = async (rows) => {
      writes.push(rows.length);
      if (fail) throw new Error('disk full');
      return insert(rows);
    };
    try {
      await Promise.all(Array.from({ length: 50 }, (_, i) => audit.record(entry('proc.start', `p${i}`))));
      // the first entry goes alone, the 49 recorded meanwhile in the next write
      expect(writes).toEqual([1, 49]);
      expect((await audit.query({ limit: 100 })).count).toBe(50);
      fail = true;
      const results = await Promise.allSettled([audit.record(entry('a', 'x')), audit.record(entry('a', 'y'))]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      fail = false;
      await audit.record(entry('a', 'z'));
      expect((await audit.query({ action: 'a' })).rows.map((r) => r.target)).toEqual(['z']);
    } finally {
      queries.insertAuditEntries = insert;
    }
  });

  it('keeps an explicit time and orders by it', async () => {
    await audit.record(entry('a', 'late', { time: T0 + 5000 }));
    await audit.record(entry('a', 'early', { time: T0 - 5000 }));
    await audit.record(entry('a', 'now'));
    expect((await audit.query({})).rows.map((r) => [r.target, r.time])).toEqual([
      ['late', T0 + 5000],
      ['now', T0],
      ['early', T0 - 5000],
    ]);
  });

  it('filters by actor, action, target and an inclusive time range', async () => {
    await audit.record(entry('proc.start', 'p1'));
    clock.advance(10);
    await audit.record(entry('proc.start', 'p2', { actor: 'u2', actor_name: 'bob' }));
    clock.advance(10);
    await audit.record(entry('task.complete', 'p1/t1'));
    clock.advance(10);
    await audit.record(entry('user.roles', 'u2', { actor: 'system', actor_name: 'system' }));
    const targets = async (query: object) => (await audit.query(query)).rows.map((r) => r.target);
    expect(await targets({ actor: 'u1' })).toEqual(['p1/t1', 'p1']);
    expect(await targets({ action: 'proc.start' })).toEqual(['p2', 'p1']);
    expect(await targets({ target: 'p1' })).toEqual(['p1']);
    expect(await targets({ actor: 'u1', action: 'proc.start' })).toEqual(['p1']);
    expect(await targets({ from: T0 + 10, to: T0 + 20 })).toEqual(['p1/t1', 'p2']);
    expect(await targets({ from: T0 + 21 })).toEqual(['u2']);
    expect(await targets({ to: T0 })).toEqual(['p1']);
    expect(await targets({ actor: 'nobody' })).toEqual([]);
  });

  it('targetUnder finds a target and what is under it (a process and its tasks), not its look-alikes', async () => {
    for (const target of ['p1', 'p1/t1', 'p1/t2', 'p10', 'p10/t1', 'p1x', 'p', 'p2/t1']) {
      await audit.record(entry('task.complete', target));
      clock.advance(1);
    }
    const targets = async (query: object) => (await audit.query(query)).rows.map((r) => r.target);
    expect(await targets({ targetUnder: 'p1' })).toEqual(['p1/t2', 'p1/t1', 'p1']);
    expect(await targets({ targetUnder: 'p1', from: T0 + 1 })).toEqual(['p1/t2', 'p1/t1']);
    expect(await targets({ targetUnder: 'p2' })).toEqual(['p2/t1']);
  });

  it('pages with offset and limit and counts every match', async () => {
    for (let i = 0; i < 7; i++) {
      await audit.record(entry('proc.start', `p${i}`));
      clock.advance(1);
    }
    const page = await audit.query({ action: 'proc.start', offset: 2, limit: 3 });
    expect(page.count).toBe(7);
    expect(page.rows.map((r) => r.target)).toEqual(['p4', 'p3', 'p2']);
    expect((await audit.query({ offset: 6, limit: 3 })).rows.map((r) => r.target)).toEqual(['p0']);
    expect((await audit.query({ limit: 2 })).rows).toHaveLength(2);
  });

  it('never stores password, token or secret keys, at any depth', async () => {
    await audit.record(
      entry('user.create', 'u9', {
        detail: {
          name: 'carl',
          password: 'hunter22-secret-value',
          roles: ['viewer'],
          nested: { apiToken: 'acts_leaked', list: [{ Secret: 's3', ok: true }], newPassword: 'p4ss' },
        },
      }),
    );
    const [row] = (await audit.query({})).rows;
    expect(row.detail).toEqual({ name: 'carl', roles: ['viewer'], nested: { list: [{ ok: true }] } });
    const stored = JSON.stringify((await store().audit.query()).rows);
    for (const secret of ['hunter22', 'acts_leaked', 's3', 'p4ss']) expect(stored).not.toContain(secret);
  });

  it('truncates a big detail to at most 4 KiB of JSON with its size and the start', async () => {
    const big = { items: Array.from({ length: 500 }, (_, i) => ({ i, text: `"quoted" \\ é ${i}` })) };
    await audit.record(entry('model.deploy', 'm1', { detail: big }));
    const { detail } = (await audit.query({})).rows[0] as { detail: { truncated: boolean; bytes: number; preview: string } };
    expect(detail.truncated).toBe(true);
    expect(detail.bytes).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(JSON.stringify(big).startsWith(detail.preview)).toBe(true);
    expect(detail.preview.length).toBeGreaterThan(1000);
    expect(Buffer.byteLength(JSON.stringify(detail))).toBeLessThanOrEqual(MAX_DETAIL_BYTES);
  });

  it('keeps a null, missing or unserialisable detail without failing', async () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    await audit.record(entry('a', 'null', { detail: null }));
    await audit.record(entry('a', 'missing', { detail: undefined }));
    await audit.record(entry('a', 'circular', { detail: circular }));
    await audit.record(entry('a', 'bigint', { detail: { n: 10n } }));
    const byTarget = Object.fromEntries((await audit.query({})).rows.map((r) => [r.target, r.detail]));
    expect(byTarget.null).toBeNull();
    expect(byTarget.missing).toBeNull();
    expect(byTarget.circular).toEqual({ unserializable: expect.stringContaining('circular') });
    expect(byTarget.bigint).toEqual({ n: '10' });
  });

  it('refuses malformed entries and queries with input.invalid', async () => {
    await expect(audit.record(entry('', 'x'))).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.record({ ...entry('a', 'x'), actor: 7 as never })).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.record(entry('a', 'x', { time: -1 }))).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.query({ limit: 0 })).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.query({ limit: 100_000 })).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.query({ offset: -1 })).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.query({ from: 1.5 })).rejects.toMatchObject({ code: 'input.invalid' });
    await expect(audit.query({ actor: 3 as never })).rejects.toMatchObject({ code: 'input.invalid' });
    expect((await audit.query({})).count).toBe(0);
  });

  it('cuts over-long text fields instead of failing', async () => {
    await audit.record(entry('a', 't'.repeat(5000)));
    expect((await audit.query({})).rows[0].target).toHaveLength(500);
  });
});

describe('boundDetail', () => {
  it('keeps a small detail as it is and bounds any size', () => {
    expect(boundDetail({ a: [1, 'two'], token_name: 'x' })).toEqual({ a: [1, 'two'] });
    expect(boundDetail('plain')).toBe('plain');
    for (const size of [100, 200, 1000]) {
      const bounded = boundDetail({ s: '"'.repeat(5000) }, size);
      expect(Buffer.byteLength(JSON.stringify(bounded)), `bound ${size}`).toBeLessThanOrEqual(size);
    }
  });

  it('drops secret keys at any depth, keeps secret words in values, and writes bigints as text', () => {
    const detail = { inputs: { amount: 5, nested: [{ Password: 'p', note: 'the token is elsewhere' }] }, api_Secret: 's', idempotencyKey: 'k' };
    expect(boundDetail(detail)).toEqual({ inputs: { amount: 5, nested: [{ note: 'the token is elsewhere' }] }, idempotencyKey: 'k' });
    expect(boundDetail({ inputs: { note: 'a token in a value' } })).toEqual({ inputs: { note: 'a token in a value' } });
    expect(boundDetail({ n: 12n, deep: { m: [1n] } })).toEqual({ n: '12', deep: { m: ['1'] } });
    expect(boundDetail(undefined)).toBeNull();
  });
});
