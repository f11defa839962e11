/**
 * The guard against server-side request forgery for outgoing webhooks: an agent types any URL, and
 * our server then POSTs to it, so without a guard that URL could reach this machine, the private
 * network the functions run in, or the cloud's metadata service (169.254.169.254 hands out
 * credentials). The Standard Webhooks spec names the attack ("Server side request forgery").
 *
 * Two checks use the table below:
 * - checkWebhookUrl, when an endpoint is saved: friendly sentences for the form;
 * - postWebhook (post-webhook.server.ts), at every delivery, on the addresses the name resolves to
 *   at that moment, inside the connection's own lookup: a name that was public when it was saved
 *   and points inside now (DNS rebinding) is refused before anything is sent.
 *
 * The table is IANA's special-purpose registries (IPv4 and IPv6) less what is globally reachable.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4
 * address: ::ffff:127.0.0.1 is 127.0.0.1 to the operating system.
 */
import { BlockList, isIP } from 'node:net';

export interface AddressRange {
  /** CIDR: address/prefix length. */
  range: string;
  /** Why nothing is sent there, as a sentence for the threat model and a delivery's log. */
  why: string;
}

/** Refused whatever the address in them: nothing a webhook receiver on the internet can be. */
export const REFUSED_RANGES: readonly AddressRange[] = [
  { range: '0.0.0.0/8', why: '"this network": 0.0.0.0 reaches this machine on many systems' },
  { range: '10.0.0.0/8', why: 'a private network (RFC 1918)' },
  { range: '100.64.0.0/10', why: 'shared address space behind carrier-grade NAT (RFC 6598)' },
  { range: '127.0.0.0/8', why: 'loopback: this machine' },
  {
    range: '169.254.0.0/16',
    why: 'link-local, where the cloud metadata service answers (169.254.169.254)',
  },
  { range: '172.16.0.0/12', why: 'a private network (RFC 1918)' },
  { range: '192.0.0.0/24', why: 'IETF protocol assignments (RFC 6890)' },
  { range: '192.0.2.0/24', why: 'documentation only (TEST-NET-1)' },
  { range: '192.88.99.0/24', why: 'the retired 6to4 relay anycast (RFC 7526)' },
  { range: '192.168.0.0/16', why: 'a private network (RFC 1918)' },
  { range: '198.18.0.0/15', why: 'network benchmarking (RFC 2544)' },
  { range: '198.51.100.0/24', why: 'documentation only (TEST-NET-2)' },
  { range: '203.0.113.0/24', why: 'documentation only (TEST-NET-3)' },
  { range: '224.0.0.0/4', why: 'multicast' },
  { range: '240.0.0.0/4', why: 'reserved, and 255.255.255.255 is the local broadcast' },
  { range: '::/128', why: 'the unspecified IPv6 address, which reaches this machine on many systems' },
  { range: '::1/128', why: 'IPv6 loopback: this machine' },
  {
    range: 'fc00::/7',
    why: 'an IPv6 unique local (private) network, where AWS’s metadata service answers (fd00:ec2::254)',
  },
  { range: 'fe80::/10', why: 'IPv6 link-local' },
  { range: 'fec0::/10', why: 'IPv6 site-local (deprecated, still private)' },
  { range: 'ff00::/8', why: 'IPv6 multicast' },
  { range: '2001:db8::/32', why: 'IPv6 documentation only' },
  { range: '100::/64', why: 'IPv6 discard-only (RFC 6666)' },
  { range: '2001::/23', why: 'IETF protocol assignments, Teredo tunnels (2001::/32) among them' },
  // Not in the issue's list: RFC 8215's local-use NAT64 prefix translates to whatever IPv4 address
  // the local translator chooses, private ones included, and the IPv4 address sits split around
  // a reserved byte, so it cannot be judged like 64:ff9b::/96.
  { range: '64:ff9b:1::/48', why: 'local-use IPv4/IPv6 translation (RFC 8215)' },
];

interface EmbeddingForm extends AddressRange {
  /** The index of the first of the two 16-bit groups that hold the IPv4 address. */
  ipv4Group: 1 | 6;
}

const EMBEDDING: readonly EmbeddingForm[] = [
  { range: '::ffff:0:0/96', why: 'an IPv4-mapped IPv6 address', ipv4Group: 6 },
  { range: '64:ff9b::/96', why: 'a NAT64 address (RFC 6052)', ipv4Group: 6 },
  { range: '2002::/16', why: 'a 6to4 address', ipv4Group: 1 },
  // Last: ::/128 and ::1/128 are in it, and are refused as themselves first.
  { range: '::/96', why: 'a deprecated IPv4-compatible IPv6 address', ipv4Group: 6 },
];

/** IPv6 forms that carry an IPv4 address: refused when the IPv4 address they carry is refused. */
export const EMBEDDED_IPV4_FORMS: readonly AddressRange[] = EMBEDDING;

type Family = 'ipv4' | 'ipv6';

/** One BlockList per range, so that a match also says which range (and why). */
function withList<Range extends AddressRange>(range: Range): Range & { family: Family; list: BlockList } {
  const [network = '', prefix = ''] = range.range.split('/');
  const family = isIP(network) === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(network, Number(prefix), family);
  return { ...range, family, list };
}

const REFUSED = REFUSED_RANGES.map(withList);
const REFUSED_V4 = REFUSED.filter(({ family }) => family === 'ipv4');
const REFUSED_V6 = REFUSED.filter(({ family }) => family === 'ipv6');
const EMBEDDED = EMBEDDING.map(withList);

/** An address as written in a URL or by a resolver: without [brackets] or an IPv6 %zone. */
function bare(address: string): string {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** The eight 16-bit groups of an address isIP() calls IPv6 (a trailing dotted IPv4 included). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${(
        (Number(dotted[3]) << 8) |
        Number(dotted[4])
      ).toString(16)}`
    : address;
  const [head = '', tail] = hex.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: zeros }, () => 0), ...right];
}

/** The IPv4 address held by groups `at` and `at + 1`, dotted. */
function ipv4At(groups: number[], at: number): string {
  const [high = 0, low = 0] = groups.slice(at, at + 2);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Why nothing may be sent to `address` (an IPv4 or IPv6 address, [bracketed] or not), or null when
 * it is a public address. Anything that is not an IP address is refused: the guard fails closed.
 */
export function refusedAddressReason(address: string): string | null {
  const ip = bare(address);
  const version = isIP(ip);
  if (version === 4) return REFUSED_V4.find(({ list }) => list.check(ip, 'ipv4'))?.why ?? null;
  if (version !== 6) return 'not an IP address';
  // ::/128 and ::1/128 first: they are inside ::/96, but are not an IPv4 address carried in IPv6.
  const exact = REFUSED_V6.find(({ range, list }) => range.endsWith('/128') && list.check(ip, 'ipv6'));
  if (exact) return exact.why;
  const form = EMBEDDED.find(({ list }) => list.check(ip, 'ipv6'));
  if (form) {
    const ipv4 = ipv4At(ipv6Groups(ip), form.ipv4Group);
    const why = refusedAddressReason(ipv4);
    return why === null ? null : `${why}: ${ipv4}, carried in ${form.why}`;
  }
  return REFUSED_V6.find(({ list }) => list.check(ip, 'ipv6'))?.why ?? null;
}

/**
 * Whether `address` is this machine's loopback, 127.0.0.0/8 or ::1, as written (not a mapped
 * form): what tests and local development let through (postWebhook's allowLoopback).
 */
export function isLoopbackAddress(address: string): boolean {
  const ip = bare(address);
  const version = isIP(ip);
  if (version === 4) return ip.startsWith('127.');
  return version === 6 && ipv6Groups(ip).every((group, index) => group === (index === 7 ? 1 : 0));
}

/** The longest URL an endpoint may have: what browsers and most servers handle without trouble. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Names that never leave the local network (RFC 6761 localhost, mDNS .local, home.arpa, .internal). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * The checks of an endpoint's URL when it is saved, each with a sentence for the form. This is
 * the friendly half: a name is judged here only by how it is spelled, and postWebhook checks what
 * it resolves to at every delivery. `production` false (local development) allows plain http://
 * and localhost names, and `allowLoopback` (never in production) the loopback addresses written as
 * such, so a developer or a test can point an endpoint at a receiver on their machine.
 *
 * A #fragment is dropped, not refused: HTTP never sends it, so keeping it would only suggest that
 * the receiver sees it.
 */
export function checkWebhookUrl(
  raw: string,
  options: { production: boolean; allowLoopback?: boolean },
): WebhookUrlCheck {
  const refuse = (message: string): WebhookUrlCheck => ({ ok: false, message });
  const text = raw.trim();
  if (text === '') return refuse('Enter the address of your webhook receiver');
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refuse('That address is too long: at most 2,048 characters');
  if (!URL.canParse(text)) return refuse('That is not a web address; it should look like https://example.com/webhooks');
  const url = new URL(text);
  const protocols = options.production ? ['https:'] : ['https:', 'http:'];
  if (!protocols.includes(url.protocol)) {
    return refuse(options.production ? 'Use an https:// address' : 'Use an https:// or http:// address');
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('Remove the user name and password from the address');
  }
  url.hash = '';
  // The parser writes a host out in full (punycode, percent-encoding): the stored form is checked too.
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return refuse('That address is too long: at most 2,048 characters');
  if (url.hostname === '') return refuse('The address needs a server name, as in https://example.com/webhooks');
  // The parser has already turned every spelling of an IP address (0x7f000001, 127.1, [::ffff:7f00:1])
  // into its usual form, so the table sees what the operating system would connect to.
  const host = bare(url.hostname);
  if (isIP(host) !== 0) {
    return refusedAddressReason(host) === null || (options.allowLoopback === true && isLoopbackAddress(host))
      ? { ok: true, url }
      : refuse('That address points inside a private network or to a reserved range, not to the internet');
  }
  if (options.production && LOCAL_NAME.test(host.toLowerCase().replace(/\.$/, ''))) {
    return refuse('That name only works inside a local network; use an address your server has on the internet');
  }
  return { ok: true, url };
}
