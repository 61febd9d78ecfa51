/**
 * Which hosts `acts.core.http` acts may call (the engine's configuration; default: any). An entry
 * is a host name (`api.example.com`), a domain with its subdomains (`*.example.com`), an IP
 * address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). A host is checked by its name before the
 * call and by every address its name resolved to as the connection is made; each redirect hop is
 * checked the same way. Deny wins over allow; a non-empty allow list admits only what it names;
 * `denyPrivate` refuses loopback, private, link-local and unspecified addresses unless an allow
 * entry names the host or the address.
 */
import { BlockList, isIP } from 'node:net';
import { ActError } from '../../engine/errors.ts';

export interface HostPolicyConfig {
  allow?: string[];
  deny?: string[];
  denyPrivate?: boolean;
}

const PRIVATE_V4 = ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16'];
const PRIVATE_V6 = ['::/128', '::1/128', 'fc00::/7', 'fe80::/10'];

/** Names and address ranges of one list. */
class HostList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly addresses = new BlockList();

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const [address, bits] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
      if (family && bits !== undefined) this.addresses.addSubnet(address, Number(bits), family);
      else if (family) this.addresses.addAddress(address, family);
      else if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1));
      else this.names.add(entry);
    }
  }

  hasName(host: string): boolean {
    return this.names.has(host) || this.suffixes.some((s) => host.endsWith(s));
  }

  hasAddress(address: string): boolean {
    return this.addresses.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }

  get empty(): boolean {
    return this.names.size === 0 && this.suffixes.length === 0 && this.addresses.rules.length === 0;
  }
}

/** An IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`) as the IPv4 address it is. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

export class HostPolicy {
  private readonly allow: HostList;
  private readonly deny: HostList;
  private readonly privateRanges = new BlockList();

  constructor(private readonly config: HostPolicyConfig = {}) {
    this.allow = new HostList(config.allow ?? []);
    this.deny = new HostList(config.deny ?? []);
    for (const range of PRIVATE_V4) this.privateRanges.addSubnet(range.split('/')[0], Number(range.split('/')[1]), 'ipv4');
    for (const range of PRIVATE_V6) this.privateRanges.addSubnet(range.split('/')[0], Number(range.split('/')[1]), 'ipv6');
  }

  /** Whether any check applies at all (none: every host may be called). */
  get open(): boolean {
    return this.allow.empty && this.deny.empty && !this.config.denyPrivate;
  }

  /** Refuses a host by its name (or its literal address) before the call. */
  checkName(hostname: string): void {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (isIP(host)) return this.checkAddress(host, host);
    if (this.deny.hasName(host)) throw denied(host, 'its name is on the deny list (ACTS_HTTP_DENY)');
  }

  /** Refuses an address `host` resolved to (or `host` itself, an IP literal). */
  checkAddress(host: string, resolved: string): void {
    const address = plain(resolved);
    const name = host.toLowerCase();
    if (this.deny.hasAddress(address)) throw denied(host, `its address ${address} is on the deny list (ACTS_HTTP_DENY)`);
    const allowed = this.allow.hasName(name) || this.allow.hasAddress(address);
    if (!this.allow.empty && !allowed) throw denied(host, `neither it nor its address ${address} is on the allow list (ACTS_HTTP_ALLOW)`);
    if (this.config.denyPrivate && !allowed && this.privateRanges.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) {
      throw denied(host, `its address ${address} is a private, loopback or link-local one (ACTS_HTTP_DENY_PRIVATE)`);
    }
  }
}

function denied(host: string, why: string): ActError {
  return new ActError('http.denied_host', `calling '${host}' is not allowed: ${why}; ask the operator to change the engine's host policy`);
}
