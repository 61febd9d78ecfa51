/**
 * The host policy of `acts.core.http` acts as configuration (issue 13, item 1): ACTS_HTTP_ALLOW,
 * ACTS_HTTP_DENY (comma-separated) and ACTS_HTTP_DENY_PRIVATE reach the engine's options; bad
 * values are `config.invalid`; the policy decides by name, address and range.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/runtime/config.ts';
import { engineOptionsFrom } from '../server/runtime/engine-options.ts';
import { HostPolicy } from '../server/runtime/outbound-http/host-policy.ts';

const empty = path.join(mkdtempSync(path.join(tmpdir(), 'acts-http-config-')), 'empty.json');
writeFileSync(empty, '{}');

describe('http host policy configuration', () => {
  it('default: any host, nothing denied', () => {
    const cfg = loadConfig({ file: empty, env: {} });
    expect(engineOptionsFrom(cfg).http).toEqual({ allow: undefined, deny: undefined, denyPrivate: false });
    expect(new HostPolicy(engineOptionsFrom(cfg).http).open).toBe(true);
  });

  it('the environment sets lists (comma-separated) and the private flag', () => {
    const cfg = loadConfig({ file: empty, env: { ACTS_HTTP_ALLOW: 'api.example.com, *.corp.example ,10.0.0.0/8', ACTS_HTTP_DENY: 'evil.example', ACTS_HTTP_DENY_PRIVATE: '1' } });
    expect(engineOptionsFrom(cfg).http).toEqual({ allow: ['api.example.com', '*.corp.example', '10.0.0.0/8'], deny: ['evil.example'], denyPrivate: true });
    expect(loadConfig({ file: empty, env: { ACTS_HTTP_DENY_PRIVATE: 'false' } }).http_deny_private).toBe(false);
  });

  it('a flag that is not 1/0/true/false is config.invalid', () => {
    expect(() => loadConfig({ file: empty, env: { ACTS_HTTP_DENY_PRIVATE: 'yes please' } })).toThrow(expect.objectContaining({ code: 'config.invalid', message: expect.stringMatching(/http_deny_private/) }));
  });

  it('decides by name, subdomain, address and range; deny wins; private ranges unless allowed', () => {
    const policy = new HostPolicy({ allow: ['api.example.com', '*.corp.example', '10.0.0.0/8'], deny: ['10.6.6.6'], denyPrivate: true });
    expect(() => policy.checkAddress('api.example.com', '93.184.216.34')).not.toThrow();
    expect(() => policy.checkAddress('x.corp.example', '10.1.2.3')).not.toThrow();
    expect(() => policy.checkAddress('other.example', '93.184.216.34')).toThrow(expect.objectContaining({ code: 'http.denied_host' }));
    expect(() => policy.checkAddress('bad.corp.example', '10.6.6.6')).toThrow(/on the deny list/);
    expect(() => policy.checkName('192.168.1.1')).toThrow(/allow list/);
    const privateOnly = new HostPolicy({ denyPrivate: true });
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '169.254.169.254', '172.20.0.1', 'fd00::1']) {
      expect(() => privateOnly.checkAddress('h', address), address).toThrow(/private, loopback or link-local/);
    }
    expect(() => privateOnly.checkAddress('h', '8.8.8.8')).not.toThrow();
  });
});
