/** Runtime configuration: file, then environment, then overrides; bad values are clear errors. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/runtime/config.ts';
import { engineOptionsFrom } from '../server/runtime/engine-options.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'acts-config-'));
const file = (name: string, content: unknown) => {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

describe('loadConfig', () => {
  it('has defaults, reads the file, lets the environment and overrides win', () => {
    expect(loadConfig({ file: file('empty.json', {}), env: {} })).toMatchObject({ store: 'file:./data/acts.db', tick_interval_secs: 15, cache_cap: 1024 });
    const cfg = loadConfig({
      file: file('a.json', { store: 'file:/tmp/x.db', cache_cap: 10, scheduler_workers: 2 }),
      env: { ACTS_CACHE_CAP: '20', DATABASE_URL: 'postgresql://postgres@127.0.0.1/acts' },
      overrides: { scheduler_workers: 8 },
    });
    expect(cfg).toMatchObject({ store: 'postgresql://postgres@127.0.0.1/acts', cache_cap: 20, scheduler_workers: 8 });
  });

  it('store_writer_cap: 10000 by default, ACTS_STORE_WRITER_CAP wins, passed to the engine as storeWriterCap; 0 is refused', () => {
    expect(loadConfig({ file: file('w0.json', {}), env: {} }).store_writer_cap).toBe(10_000);
    const cfg = loadConfig({ file: file('w1.json', { store_writer_cap: 500 }), env: { ACTS_STORE_WRITER_CAP: '64' } });
    expect(cfg.store_writer_cap).toBe(64);
    expect(engineOptionsFrom(cfg).storeWriterCap).toBe(64);
    expect(() => loadConfig({ file: file('w2.json', { store_writer_cap: 0 }), env: {} })).toThrow(/store_writer_cap/);
  });

  it('refuses unknown keys, bad values, a missing named file and invalid JSON with config.invalid', () => {
    expect(() => loadConfig({ file: file('b.json', { cache_cap: 0 }), env: {} })).toThrow(/cache_cap/);
    expect(() => loadConfig({ file: file('c.json', { cach_cap: 1 }), env: {} })).toThrow(/cach_cap|Unrecognized/);
    expect(() => loadConfig({ file: file('d.json', {}), env: { ACTS_SCHEDULER_WORKERS: 'many' } })).toThrow(/scheduler_workers/);
    expect(() => loadConfig({ file: path.join(dir, 'missing.json'), env: {} })).toThrow(/does not exist/);
    try {
      loadConfig({ file: file('e.json', '{ not json'), env: {} });
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'config.invalid' });
    }
  });
});
