/**
 * The part of a client's address that per-IP limits count (security audit, finding 12). An IPv4
 * address is one client. An IPv6 client is its /64: a provider gives a subscriber (or a VPS) a whole
 * /64 and its hosts choose their low 64 bits freely, so counting exact IPv6 addresses would let one
 * client rotate through 2^64 of them. Every spelling of an address gives the same key: IPv6 in
 * full form (lower case, four hex digits a group, no `::`), and an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, as a dual-stack socket reports an IPv4 client) as the IPv4 address it carries.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (without brackets or zone). */
function ipv6Groups(address: string): number[] {
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  let text = address;
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = parse(head);
  const after = rest === undefined ? [] : parse(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The rate-limit key of a client address: see the module's comment. Anything not an IP stays as it is. */
export function clientKey(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16).padStart(4, '0'))
    .join(':')}::/64`;
}
