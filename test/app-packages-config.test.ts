/**
 * The configuration of `acts.app.shell` and `acts.app.state` (issue 13, items 2 and 3): shell acts
 * are off by default, ACTS_SHELL_ENABLE and ACTS_SHELL_ROOT reach the engine's options; state
 * values are on the store unless ACTS_STATE_REDIS_URL (with ACTS_STATE_REDIS_PREFIX) names a
 * Redis; bad values are config.invalid.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/runtime/config.ts';
import { engineOptionsFrom } from '../server/runtime/engine-options.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'acts-shell-config-'));
const empty = path.join(dir, 'empty.json');
writeFileSync(empty, '{}');

describe('shell configuration', () => {
  it('default: off, no root of its own', () => {
    expect(engineOptionsFrom(loadConfig({ file: empty, env: {} })).shell).toEqual({ enabled: false, root: undefined });
  });

  it('the environment turns it on and names the root; the config file can too', () => {
    expect(engineOptionsFrom(loadConfig({ file: empty, env: { ACTS_SHELL_ENABLE: '1', ACTS_SHELL_ROOT: '/srv/acts-shell' } })).shell).toEqual({ enabled: true, root: '/srv/acts-shell' });
    expect(loadConfig({ file: empty, env: { ACTS_SHELL_ENABLE: 'true' } }).shell_enable).toBe(true);
    const file = path.join(dir, 'on.json');
    writeFileSync(file, JSON.stringify({ shell_enable: true }));
    expect(loadConfig({ file, env: {} }).shell_enable).toBe(true);
    expect(loadConfig({ file, env: { ACTS_SHELL_ENABLE: '0' } }).shell_enable).toBe(false);
  });

  it('a flag that is not 1/0/true/false is config.invalid', () => {
    expect(() => loadConfig({ file: empty, env: { ACTS_SHELL_ENABLE: 'on' } })).toThrow(expect.objectContaining({ code: 'config.invalid', message: expect.stringMatching(/shell_enable/) }));
  });
});

describe('state configuration', () => {
  it('default: on the store; the environment names a Redis and a key prefix', () => {
    expect(engineOptionsFrom(loadConfig({ file: empty, env: {} })).state).toEqual({ redisUrl: undefined, redisPrefix: undefined });
    expect(engineOptionsFrom(loadConfig({ file: empty, env: { ACTS_STATE_REDIS_URL: 'redis://127.0.0.1:6379/2', ACTS_STATE_REDIS_PREFIX: 'acts:' } })).state).toEqual({ redisUrl: 'redis://127.0.0.1:6379/2', redisPrefix: 'acts:' });
  });

  it('a URL that is not redis:// or rediss:// is config.invalid', () => {
    expect(() => loadConfig({ file: empty, env: { ACTS_STATE_REDIS_URL: '127.0.0.1:6379' } })).toThrow(expect.objectContaining({ code: 'config.invalid', message: expect.stringMatching(/state_redis_url: must be a redis:\/\/ or rediss:\/\/ URL/) }));
  });
});
