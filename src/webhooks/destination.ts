// Where a webhook may be sent (SSRF guard): https, or http to hosts the operator allows; never to private,
// loopback, link-local, metadata or other non-public addresses unless the operator lists the host. Checked when
// an endpoint is saved and again before every attempt, after DNS resolution; the connection then goes to the
// address that was checked, so a DNS answer cannot change between the check and the request.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export class RefusedDestination extends Error {
  constructor(
    readonly code: 'invalidUrl' | 'httpsRequired' | 'privateAddress' | 'unresolvable',
    message: string,
    readonly params: Record<string, string> = {},
  ) {
    super(message);
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

/** Host names and addresses the operator allows even when private (WEBHOOK_ALLOWED_HOSTS). */
export function allowedHostsFrom(value: string | undefined): Set<string> {
  return new Set((value ?? '').split(',').map((host) => host.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter(Boolean));
}

export async function checkDestination(raw: string, allowedHosts: ReadonlySet<string>): Promise<Destination> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedDestination('invalidUrl', 'The URL is not valid.');
  }
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const allowed = allowedHosts.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
    throw new RefusedDestination('httpsRequired', 'Webhook URLs must use https (or http to a host the operator allows).');
  }
  if (url.username || url.password) throw new RefusedDestination('invalidUrl', 'Webhook URLs may not carry credentials.');
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RefusedDestination('unresolvable', `The host ${host} cannot be resolved.`, { host });
  }
  const refused = addresses.find((entry) => !isPublic(entry.address) && !allowed && !allowedHosts.has(entry.address));
  if (refused || !addresses.length) {
    const address = refused?.address ?? 'nothing';
    throw new RefusedDestination('privateAddress', `The host ${host} resolves to ${address}, which is not a public address.`, { host, address });
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
