import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outbound requests to addresses a user supplied (Web Push endpoints today; webhooks, link
 * previews or imports tomorrow) must not turn the server against its own network. The guard:
 * - accepts only URLs of the allowed schemes (https by default), without credentials;
 * - optionally only hosts of an allow-list (`push.example.com`, or `*.example.com` for any name
 *   under it);
 * - resolves the host and refuses it unless EVERY address is public: not loopback, private
 *   (RFC 1918, carrier-grade NAT), link-local, unique-local, multicast, broadcast, unspecified,
 *   reserved or documentation ranges, nor an IPv6 form that embeds an IPv4 address (mapped,
 *   NAT64, 6to4, Teredo). IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry;
 * - does it again when a connection is made (`lookup`, used by `OutboundClient`'s agent): the
 *   address connected to is the one that was checked, so a name that resolved to a public address
 *   at subscription time and to 127.0.0.1 later (DNS rebinding) is refused then.
 *
 * `allowedPrivateRanges` opens named non-public ranges (CIDR, e.g. `127.0.0.1/32`) for tests and
 * development, where a fake service listens on loopback; production leaves it empty.
 */
export interface OutboundAddressPolicy {
  /** URL schemes accepted, with the colon; default `['https:']`. */
  protocols?: readonly string[];
  /** Only these hosts (exact names, or `*.example.com` for names under it); unset or empty: any public host. */
  allowedHosts?: readonly string[];
  /** Non-public ranges (CIDR) that may nonetheless be reached: tests and development only. */
  allowedPrivateRanges?: readonly string[];
  /** How long a DNS lookup may take; default 5 s. */
  lookupTimeoutMs?: number;
}

export type OutboundRefusal = 'invalid-url' | 'protocol' | 'credentials' | 'host-not-allowed' | 'not-public' | 'unresolved';

/** A URL or address the guard refuses; `reason` says which rule. Messages are safe to show the user. */
export class OutboundAddressError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(
    readonly reason: OutboundRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundAddressError';
  }
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const GLOBAL_UNICAST_V6: Range = [ipaddr.IPv6.parse('2000::'), 3];

/** Parses an address, IPv4-mapped IPv6 as the IPv4 address it carries. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isIP(text) === 0) return undefined;
  try {
    return ipaddr.process(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether an IP address is public: an IPv4 address outside every special-purpose range, or an
 * IPv6 global unicast address (2000::/3) outside the special ones. Anything else, and anything
 * that is not an IP address, is not.
 */
export function isPublicAddress(text: string): boolean {
  const address = parseAddress(text);
  if (!address) return false;
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

/** Parses a CIDR list entry; throws with the entry named. */
export function parseCidr(text: string): Range {
  try {
    return ipaddr.parseCIDR(text.trim());
  } catch {
    throw new Error(`"${text}" is not a CIDR range (e.g. 127.0.0.1/32 or ::1/128)`);
  }
}

/** The host of a URL as DNS and sockets want it: no IPv6 brackets, no trailing dot, lower case. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.trim().replace(/\.$/, '').toLowerCase();
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}

export class OutboundAddressGuard {
  private readonly protocols: readonly string[];
  private readonly allowedHosts: readonly string[];
  private readonly privateRanges: Range[];
  private readonly lookupTimeoutMs: number;

  constructor(policy: OutboundAddressPolicy = {}) {
    this.protocols = policy.protocols?.length ? policy.protocols : ['https:'];
    this.allowedHosts = (policy.allowedHosts ?? []).map((h) => h.trim()).filter(Boolean);
    this.privateRanges = (policy.allowedPrivateRanges ?? []).map((r) => r.trim()).filter(Boolean).map(parseCidr);
    this.lookupTimeoutMs = policy.lookupTimeoutMs ?? 5_000;
  }

  /** The non-public ranges this guard opens, as given (empty in production). */
  get openedPrivateRanges(): string[] {
    return this.privateRanges.map(([address, bits]) => `${address.toString()}/${bits}`);
  }

  /** Whether an address may be connected to: public, or inside a range opened for tests. */
  isAllowedAddress(text: string): boolean {
    if (isPublicAddress(text)) return true;
    const address = parseAddress(text);
    return !!address && this.privateRanges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }

  /** The checks that need no DNS: a URL of an allowed scheme, without credentials, of an allowed host. */
  checkUrl(raw: string | URL): URL {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new OutboundAddressError('invalid-url', 'must be a URL');
    }
    if (!this.protocols.includes(url.protocol)) throw new OutboundAddressError('protocol', `must be an ${this.protocols.map((p) => p.replace(/:$/, '')).join(' or ')} URL`);
    if (url.username || url.password) throw new OutboundAddressError('credentials', 'must not carry credentials');
    const host = bareHost(url);
    if (!host) throw new OutboundAddressError('invalid-url', 'must name a host');
    if (this.allowedHosts.length > 0 && !this.allowedHosts.some((pattern) => hostMatches(host, pattern))) {
      throw new OutboundAddressError('host-not-allowed', 'must be on a host this server sends to');
    }
    return url;
  }

  /** Resolves a host name (or takes an address) and refuses it unless every address is allowed. */
  async resolve(hostname: string, family: 0 | 4 | 6 = 0): Promise<LookupAddress[]> {
    const host = hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await this.lookupAll(host, family);
    if (addresses.length === 0) throw new OutboundAddressError('unresolved', 'host does not resolve');
    const refused = addresses.find((a) => !this.isAllowedAddress(a.address));
    if (refused) throw new OutboundAddressError('not-public', 'must be a public address (not loopback, private, link-local or another internal range)');
    return addresses;
  }

  /** `checkUrl`, then the host resolved and every address checked: what a subscription is checked with. */
  async check(raw: string | URL): Promise<URL> {
    const url = this.checkUrl(raw);
    await this.resolve(bareHost(url));
    return url;
  }

  /**
   * A `net`/`tls` `lookup` hook: the connection goes to the addresses checked here and nowhere
   * else. (A host that is an IP address is never looked up: `OutboundClient` checks it itself.)
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    this.resolve(hostname, family).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '', 0),
    );
  };

  private lookupAll(host: string, family: 0 | 4 | 6): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new OutboundAddressError('unresolved', 'host did not resolve in time'));
      }, this.lookupTimeoutMs);
      timer.unref();
      dnsLookup(host, { all: true, family, order: 'verbatim' }, (error, addresses) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(new OutboundAddressError('unresolved', 'host does not resolve'));
        else resolve(addresses);
      });
    });
  }
}
