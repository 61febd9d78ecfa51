/**
 * The configuration of `acts.app.shell` (issue 13, item 2): off by default; ACTS_SHELL_ENABLE and
 * ACTS_SHELL_ROOT reach the engine's options; a flag that is not 1/0/true/false is config.invalid.
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
