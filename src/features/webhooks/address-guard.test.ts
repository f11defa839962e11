import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  EMBEDDED_IPV4_FORMS,
  isLoopbackAddress,
  REFUSED_RANGES,
  refusedAddressReason,
} from './address-guard.server.ts';

/** An address as a number: 32 bits for IPv4, 128 for IPv6 (written in full, :: expanded). */
function toBits(address: string): bigint {
  if (isIP(address) === 4) return address.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(octet), 0n);
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0'), ...right];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function fromBits(bits: bigint, version: 4 | 6): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.');
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((bits >> shift) & 0xffffn).toString(16)).join(':');
}

/** The first and the last address of a CIDR range, and one in the middle. */
function bounds(range: string): { first: string; inner: string; last: string } {
  const [network = '', prefix = ''] = range.split('/');
  const version = isIP(network) === 4 ? 4 : 6;
  const size = 1n << BigInt((version === 4 ? 32 : 128) - Number(prefix));
  const first = toBits(network);
  return {
    first: fromBits(first, version),
    inner: fromBits(first + size / 2n + 1n < first + size ? first + size / 2n + 1n : first, version),
    last: fromBits(first + size - 1n, version),
  };
}

describe('REFUSED_RANGES', () => {
  it('holds the ranges of the threat model, IPv4 and IPv6', () => {
    expect(REFUSED_RANGES.map(({ range }) => range)).toEqual([
      '0.0.0.0/8',
      '10.0.0.0/8',
      '100.64.0.0/10',
      '127.0.0.0/8',
      '169.254.0.0/16',
      '172.16.0.0/12',
      '192.0.0.0/24',
      '192.0.2.0/24',
      '192.88.99.0/24',
      '192.168.0.0/16',
      '198.18.0.0/15',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '224.0.0.0/4',
      '240.0.0.0/4',
      '::/128',
      '::1/128',
      'fc00::/7',
      'fe80::/10',
      'fec0::/10',
      'ff00::/8',
      '2001:db8::/32',
      '100::/64',
      '2001::/23',
      '64:ff9b:1::/48',
    ]);
    expect(EMBEDDED_IPV4_FORMS.map(({ range }) => range)).toEqual([
      '::ffff:0:0/96',
      '64:ff9b::/96',
      '2002::/16',
      '::/96',
    ]);
  });

  it('are all in the threat model’s table (docs/threat-model.md), and it holds no other', async () => {
    const threatModel = await readFile('docs/threat-model.md', 'utf8');
    const section = threatModel.split('## Webhooks: server-side request forgery')[1]?.split('\n## ')[0] ?? '';
    const documented = [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map(([, range]) => range);
    expect(documented).toEqual([...REFUSED_RANGES, ...EMBEDDED_IPV4_FORMS].map(({ range }) => range));
  });

  describe.each(REFUSED_RANGES)('$range', ({ range, why }) => {
    const { first, inner, last } = bounds(range);
    it.each([first, inner, last])(`refuses %s: ${why}`, (address) => {
      expect(refusedAddressReason(address)).toBe(why);
    });
  });

  it('refuses the addresses an attacker reaches for first', () => {
    expect(refusedAddressReason('169.254.169.254')).toMatch(/metadata/);
    expect(refusedAddressReason('fd00:ec2::254')).toMatch(/metadata/);
    expect(refusedAddressReason('255.255.255.255')).toMatch(/broadcast/);
    expect(refusedAddressReason('0.0.0.0')).toMatch(/this machine/);
    expect(refusedAddressReason('::')).toMatch(/this machine/);
    expect(refusedAddressReason('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toMatch(/Teredo/);
  });

  it('allows public addresses, the neighbours of refused ranges among them', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.0.3.0',
      '192.88.98.255',
      '192.88.100.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '198.51.99.255',
      '198.51.101.0',
      '203.0.112.255',
      '203.0.114.0',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2a00:1450:4001:81a::200e',
      '2001:200::1',
      '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
      '2001:db9::',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect(refusedAddressReason(address), address).toBeNull();
    }
  });

  it('refuses what is not an IP address: the guard fails closed', () => {
    for (const text of ['', 'example.com', '127.1', '0x7f000001', '2130706433', '0127.0.0.1', '1.2.3.4.5', '::g']) {
      expect(refusedAddressReason(text), text).toBe('not an IP address');
    }
  });
});

describe('IPv6 forms that carry an IPv4 address', () => {
  const forms = (ipv4: string): string[] => {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
    const high = ((a << 8) | b).toString(16);
    const low = ((c << 8) | d).toString(16);
    return [
      `::ffff:${ipv4}`,
      `::ffff:${high}:${low}`,
      `[::ffff:${ipv4}]`,
      `0:0:0:0:0:ffff:${high}:${low}`,
      `::${ipv4}`,
      `::${high}:${low}`,
      `64:ff9b::${ipv4}`,
      `64:ff9b::${high}:${low}`,
      `2002:${high}:${low}::`,
      `2002:${high}:${low}:1:2:3:4:5`,
    ];
  };

  it.each([
    ['127.0.0.1', /^loopback: this machine: 127\.0\.0\.1, carried in an? [-\w ]+ address/],
    ['10.1.2.3', /^a private network \(RFC 1918\): 10\.1\.2\.3, carried in /],
    ['169.254.169.254', /metadata service .*: 169\.254\.169\.254, carried in /],
  ])('are refused for %s, by the IPv4 address they carry', (ipv4, reason) => {
    for (const address of forms(ipv4)) expect(refusedAddressReason(address), address).toMatch(reason);
  });

  it('say which form carried the address', () => {
    expect(refusedAddressReason('::ffff:7f00:1')).toMatch(/IPv4-mapped/);
    expect(refusedAddressReason('64:ff9b::a01:203')).toMatch(/NAT64/);
    expect(refusedAddressReason('2002:a01:203::1')).toMatch(/6to4/);
    expect(refusedAddressReason('::a01:203')).toMatch(/IPv4-compatible/);
  });

  it('are allowed when the IPv4 address they carry is public', () => {
    for (const address of forms('8.8.8.8')) expect(refusedAddressReason(address), address).toBeNull();
  });

  it('ignore an IPv6 zone: fe80::1%eth0 is still link-local', () => {
    expect(refusedAddressReason('fe80::1%eth0')).toBe('IPv6 link-local');
  });
});

describe('isLoopbackAddress', () => {
  it('is 127.0.0.0/8 and ::1 as written, nothing else', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['::ffff:127.0.0.1', '::', '0.0.0.0', '10.0.0.1', '128.0.0.1', 'localhost', '::2']) {
      expect(isLoopbackAddress(address), address).toBe(false);
    }
  });
});

describe('checkWebhookUrl', () => {
  const production = { production: true };
  const development = { production: false };
  const messageOf = (raw: string, options = production) => {
    const check = checkWebhookUrl(raw, options);
    return check.ok ? null : check.message;
  };

  it('accepts a public https address, and answers it parsed', () => {
    const check = checkWebhookUrl('  https://hooks.example.com:8443/li/net-sheet?key=1  ', production);
    expect(check.ok && check.url.href).toBe('https://hooks.example.com:8443/li/net-sheet?key=1');
    expect(messageOf('https://8.8.8.8/hook')).toBeNull();
    expect(messageOf('https://[2606:4700:4700::1111]/hook')).toBeNull();
  });

  it('drops a #fragment, which HTTP never sends', () => {
    const check = checkWebhookUrl('https://hooks.example.com/in#section', production);
    expect(check.ok && check.url.href).toBe('https://hooks.example.com/in');
  });

  it('asks for https in production, and allows http in local development', () => {
    expect(messageOf('http://hooks.example.com/in')).toBe('Use an https:// address');
    expect(messageOf('http://hooks.example.com/in', development)).toBeNull();
    expect(messageOf('ftp://hooks.example.com/in')).toBe('Use an https:// address');
    expect(messageOf('ftp://hooks.example.com/in', development)).toBe('Use an https:// or http:// address');
    expect(messageOf('javascript:alert(1)')).toBe('Use an https:// address');
    expect(messageOf('file:///etc/passwd', development)).toBe('Use an https:// or http:// address');
  });

  it('refuses a user name or password in the address', () => {
    expect(messageOf('https://user:secret@hooks.example.com/in')).toBe(
      'Remove the user name and password from the address',
    );
    expect(messageOf('https://user@hooks.example.com/in')).toBe('Remove the user name and password from the address');
    expect(messageOf('https://:secret@hooks.example.com/in')).toBe(
      'Remove the user name and password from the address',
    );
  });

  it('refuses what is not an address, and an empty field', () => {
    expect(messageOf('')).toBe('Enter the address of your webhook receiver');
    expect(messageOf('   ')).toBe('Enter the address of your webhook receiver');
    expect(messageOf('hooks.example.com/in')).toMatch(/^That is not a web address/);
    expect(messageOf('https://')).toMatch(/^That is not a web address/);
    expect(messageOf('https://exa mple.com/')).toMatch(/^That is not a web address/);
  });

  it('refuses more than 2,048 characters, typed or once the parser has written them out', () => {
    const base = 'https://hooks.example.com/';
    expect(messageOf(base + 'a'.repeat(2048 - base.length))).toBeNull();
    expect(messageOf(base + 'a'.repeat(2049 - base.length))).toBe('That address is too long: at most 2,048 characters');
    // Each space becomes %20: 1,126 characters typed, 2,226 stored.
    expect(messageOf(base + ' x'.repeat(550))).toBe('That address is too long: at most 2,048 characters');
  });

  it('refuses an IP address inside a private network or a reserved range, however it is spelled', () => {
    for (const raw of [
      'https://127.0.0.1/in',
      'https://127.1/in',
      'https://0x7f000001/in',
      'https://2130706433/in',
      'https://0177.0.0.1/in',
      'https://10.0.0.1/in',
      'https://169.254.169.254/latest/meta-data/',
      'https://0.0.0.0/in',
      'https://[::1]/in',
      'https://[::]/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://[::ffff:7f00:1]/in',
      'https://[64:ff9b::a9fe:a9fe]/in',
      'https://[fd00:ec2::254]/in',
      'https://[fe80::1]/in',
    ]) {
      for (const options of [production, development]) {
        expect(messageOf(raw, options), raw).toBe(
          'That address points inside a private network or to a reserved range, not to the internet',
        );
      }
    }
  });

  it('refuses localhost and local-network names in production, and allows them in development', () => {
    for (const raw of [
      'https://localhost/in',
      'https://LOCALHOST:4411/in',
      'https://localhost./in',
      'https://api.localhost/in',
      'https://printer.local/in',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://nas.home.arpa/in',
    ]) {
      expect(messageOf(raw), raw).toBe(
        'That name only works inside a local network; use an address your server has on the internet',
      );
      expect(messageOf(raw, development), raw).toBeNull();
    }
    // Only the whole last labels count: these are ordinary public names.
    expect(messageOf('https://notlocalhost.com/in')).toBeNull();
    expect(messageOf('https://local.example.com/in')).toBeNull();
    expect(messageOf('https://internal.example.com/in')).toBeNull();
  });
});
