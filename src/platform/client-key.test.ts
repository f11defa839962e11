/**
 * Security audit of 26 November 2026, finding 12: per-IP limits keyed on the exact address, so a
 * client with an IPv6 /64 rotated through addresses and escaped every limit. The key is now the /64.
 */
import { describe, expect, it } from 'vitest';
import { perIpCheck } from './per-ip.server.ts';
import { clientKey } from './client-key.server.ts';
import { LIMITS } from './rate-limit.server.ts';

const keyOf = (ip: string) => perIpCheck(ip, LIMITS.signupPerIp, 'signup')[0]?.key;

describe('the rate-limit key of a client address', () => {
  it('puts every address of one IPv6 /64 in one bucket, however it is written', () => {
    const addresses = [
      '2001:db8:1234:5678::1',
      '2001:db8:1234:5678:ffff:ffff:ffff:ffff',
      '2001:0DB8:1234:5678:0000:0000:0000:0002',
      '2001:db8:1234:5678:a:b:c:d',
      '[2001:db8:1234:5678::99]',
      '2001:db8:1234:5678::7%eth0',
      '2001:db8:1234:5678:0:0:1.2.3.4',
      // Many more, as a rotating client would use them.
      ...Array.from(
        { length: 200 },
        (_, index) => `2001:db8:1234:5678:${index.toString(16)}:${((index * 7919) & 0xffff).toString(16)}::1`,
      ),
    ];
    const keys = new Set(addresses.map(keyOf));
    expect([...keys]).toEqual(['signup:ip:2001:0db8:1234:5678::/64']);
  });

  it('keeps different /64s, even neighbours, in different buckets', () => {
    const addresses = [
      '2001:db8:1234:5678::1',
      '2001:db8:1234:5679::1',
      '2001:db8:1234:5677::1',
      '2001:db8:1235:5678::1',
      '2001:db9:1234:5678::1',
      '::2',
    ];
    expect(new Set(addresses.map(keyOf)).size).toBe(addresses.length);
    expect(clientKey('2001:db8::1')).toBe('2001:0db8:0000:0000::/64');
    expect(clientKey('::2')).toBe('0000:0000:0000:0000::/64');
  });

  it('counts an IPv4 client by its address, and an IPv4-mapped IPv6 address as that IPv4 address', () => {
    expect(keyOf('203.0.113.7')).toBe('signup:ip:203.0.113.7');
    expect(keyOf('::ffff:203.0.113.7')).toBe('signup:ip:203.0.113.7');
    expect(keyOf('::FFFF:cb00:7107')).toBe('signup:ip:203.0.113.7');
    expect(keyOf('0:0:0:0:0:ffff:203.0.113.7')).toBe('signup:ip:203.0.113.7');
    expect(keyOf('203.0.113.8')).toBe('signup:ip:203.0.113.8');
    // Neighbouring IPv4 addresses stay apart (an IPv4 address is usually one subscriber).
    expect(keyOf('203.0.113.7')).not.toBe(keyOf('203.0.113.8'));
  });

  it('leaves clients of this machine without a per-IP counter, and anything else as it came', () => {
    expect(perIpCheck('::1', LIMITS.signupPerIp, 'signup')).toEqual([]);
    expect(perIpCheck('::ffff:127.0.0.1', LIMITS.signupPerIp, 'signup')).toEqual([]);
    expect(perIpCheck('unknown', LIMITS.signupPerIp, 'signup')).toEqual([]);
    expect(clientKey('not-an-address')).toBe('not-an-address');
  });
});
