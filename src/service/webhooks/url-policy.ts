/**
 * Which webhook URLs the service may call (no SSRF): `https:` to public addresses; `http:`,
 * and any address that is private, loopback, link-local or otherwise not public, only
 * when the operator allows private targets (`WEBHOOKS_ALLOW_PRIVATE=1`: tests, development).
 * Checked when an endpoint is created and again for every resolved address at send time.
 */
import { BlockList, isIP } from 'node:net';

export interface UrlPolicy {
  /** `WEBHOOKS_ALLOW_PRIVATE=1` */
  readonly allowPrivate: boolean;
}

/**
 * Addresses that are not on the public internet: IANA's special-purpose registries, plus the
 * transition prefixes (6to4, NAT64, IPv4-compatible) that can carry a private IPv4 address.
 * IPv4-mapped IPv6 (`::ffff:0:0/96`) is not listed: BlockList would then match every IPv4
 * address; such an address is judged as the IPv4 address it carries instead.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6 text) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return !NOT_PUBLIC.check(mapped[1], 'ipv4');
  return !NOT_PUBLIC.check(address, type);
}

/** Why the URL may not be called (checked without resolving it); undefined: it may. */
export function refuseWebhookUrl(text: string, policy: UrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.protocol === 'http:') {
    if (!policy.allowPrivate)
      return 'must be https: (http: only to private addresses, where allowed)';
  } else if (url.protocol !== 'https:') {
    return 'must be https:';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return refuseAddress(host, url.protocol, policy);
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return refuseAddress('127.0.0.1', url.protocol, policy);
  }
  return undefined;
}

/** Why an address the URL's host resolved to may not be called; undefined: it may. */
export function refuseAddress(
  address: string,
  protocol: string,
  policy: UrlPolicy,
): string | undefined {
  const isPublic = isPublicAddress(address);
  if (!isPublic && !policy.allowPrivate) {
    return `resolves to ${address}, which is not a public address`;
  }
  // http: is allowed only where the address is private (development, tests).
  if (protocol === 'http:' && isPublic) return 'must be https: to a public address';
  return undefined;
}
