// The SSRF guard for every outgoing call to a URL a person or a network influences (webhooks, a person's network
// URLs, media imports, the networks' own endpoints and redirects, link cards): https, or http to hosts the operator
// allows; never to private, loopback, link-local, metadata or other non-public addresses unless the operator lists
// the host. A URL is checked after DNS resolution (a webhook when saved and again before every attempt) and the
// connection then goes to the address that was checked, so a DNS answer cannot change between the check and the
// request; clients that keep connections check every new one (`guardedConnector`).
import { lookup as lookupCallback, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

export class RefusedDestination extends Error {
  constructor(
    readonly code: 'invalidUrl' | 'httpsRequired' | 'privateAddress' | 'unresolvable',
    message: string,
    readonly params: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The reason as recorded and logged: where the operator can let the host through, it names the setting. */
  reasonWith(setting: 'WEBHOOK_ALLOWED_HOSTS' | 'NETWORK_ALLOWED_HOSTS'): string {
    const allowable = this.code === 'privateAddress' || this.code === 'httpsRequired';
    return allowable ? `${this.message} The operator can allow the host in ${setting}.` : this.message;
  }
}

export interface Destination {
  url: URL;
  address: string;
  family: 4 | 6;
}

function isPublic(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    const parts = ipv6.parts;
    // IPv4-mapped (::ffff:a.b.c.d) and the old IPv4-compatible form (::a.b.c.d) are judged as the IPv4 address.
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
    else if (parts.slice(0, 6).every((part) => part === 0)) {
      parsed = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 255, parts[7]! >> 8, parts[7]! & 255]);
    }
  }
  return parsed.range() === 'unicast';
}

/** Refuses a host whose addresses include a non-public one, unless the operator allows the host or that address. */
function assertPublic(host: string, addresses: readonly { address: string }[], allowedHosts: ReadonlySet<string>): void {
  const refused = addresses.find((entry) => !isPublic(entry.address) && !allowedHosts.has(host) && !allowedHosts.has(entry.address));
  if (refused || !addresses.length) {
    const address = refused?.address ?? 'nothing';
    throw new RefusedDestination('privateAddress', `The host ${host} resolves to ${address}, which is not a public address.`, { host, address });
  }
}

/** A host name or address as compared with the allowed ones: lower case, an IPv6 address without its brackets. */
const normalHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');

/**
 * Host names and addresses the operator allows even when private (WEBHOOK_ALLOWED_HOSTS, NETWORK_ALLOWED_HOSTS).
 * `localhost` and the loopback addresses it resolves to name this machine alike: listing `localhost` allows
 * 127.0.0.1 and ::1, and listing either of those allows `localhost` (not each other: ::1 is not 127.0.0.1).
 */
export function allowedHostsFrom(value: string | undefined): Set<string> {
  const hosts = new Set((value ?? '').split(',').map(normalHost).filter(Boolean));
  if (hosts.has('localhost')) for (const address of loopbackAddresses) hosts.add(address);
  else if (loopbackAddresses.some((address) => hosts.has(address))) hosts.add('localhost');
  return hosts;
}

const loopbackAddresses = ['127.0.0.1', '::1'];

/**
 * A connection pool that connects to the checked address only, whatever the name resolves to by the time the
 * socket opens (no second lookup a DNS rebinding could answer differently).
 */
export function pinnedAgent({ address, family }: Destination, options: Omit<Agent.Options, 'connect'> = {}): Agent {
  return new Agent({ ...options, connect: { lookup: (_hostname, _options, callback) => callback(null, [{ address, family }] as never) } });
}

/**
 * The one rule for every URL we call or show that a person or a network supplied (a webhook, an instance, the
 * endpoints in an instance's OAuth metadata, a PDS, a published item's permalink): https, or http to a host the
 * operator allows; never another scheme (`javascript:`, `data:`, `file:`) nor credentials in the URL. Where it
 * points is checked apart (`checkDestination`, `guardedConnector`), when it is called.
 */
export function webUrl(raw: string | URL, allowedHosts: ReadonlySet<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedDestination('invalidUrl', 'The URL is not valid.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowedHosts.has(normalHost(url.hostname)))) {
    throw new RefusedDestination('httpsRequired', 'The URL must use https (or http to a host the operator allows).');
  }
  if (url.username || url.password) throw new RefusedDestination('invalidUrl', 'The URL may not carry credentials.');
  return url;
}

/**
 * A URL a network named for people to open or load (a published item's permalink, an account's avatar): its text
 * where it passes `webUrl` and names no non-public address outright (unless the operator allows it), else null.
 * No DNS lookup: whoever opens it resolves it, not this service.
 */
export function shownUrl(raw: string | null | undefined, allowedHosts: ReadonlySet<string>): string | null {
  if (!raw) return null;
  try {
    assertPublicLiteral(webUrl(raw, allowedHosts).hostname, allowedHosts);
    return raw;
  } catch (error) {
    if (!(error instanceof RefusedDestination)) throw error;
    return null;
  }
}

export async function checkDestination(raw: string, allowedHosts: ReadonlySet<string>): Promise<Destination> {
  const url = webUrl(raw, allowedHosts);
  const host = normalHost(url.hostname);
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
      : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RefusedDestination('unresolvable', `The host ${host} cannot be resolved.`, { host });
  }
  assertPublic(host, addresses, allowedHosts);
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/**
 * A DNS lookup for sockets (undici's `connect.lookup`) that refuses non-public addresses unless the operator
 * allows the host or address: for clients that keep connections to hosts a person named (a Mastodon instance, a
 * Bluesky PDS), checked on every new connection, so a DNS answer that changes after connecting cannot reach inside.
 * Sockets skip the lookup for an address literal: `guardedConnector` checks those.
 */
export function guardedLookup(allowedHosts: ReadonlySet<string>): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true, verbatim: true }, (error, found) => {
      if (error) return callback(error, '', 4);
      const addresses = found as unknown as LookupAddress[];
      try {
        assertPublic(normalHost(hostname), addresses, allowedHosts);
      } catch (refusal) {
        return callback(refusal as Error, '', 4);
      }
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** For a host that is an address literal (no DNS lookup happens): the same refusal as `guardedLookup`. */
function assertPublicLiteral(hostname: string, allowedHosts: ReadonlySet<string>): void {
  const host = normalHost(hostname);
  if (ipaddr.isValid(host)) assertPublic(host, [{ address: host }], allowedHosts);
}

/**
 * undici's `connect` for clients talking to hosts a person or a network named (a Mastodon instance, a PDS, the
 * endpoints they announce, wherever they redirect): every new connection is checked, a name by its DNS answer
 * (`guardedLookup`), an address literal as it is, so no URL such a client is handed can reach inside.
 */
export function guardedConnector(allowedHosts: ReadonlySet<string>): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(allowedHosts) });
  return (options, callback) => {
    try {
      assertPublicLiteral(options.hostname, allowedHosts);
    } catch (refusal) {
      return callback(refusal as Error, null);
    }
    connect(options, callback);
  };
}
