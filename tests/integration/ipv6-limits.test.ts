/**
 * Security audit of 26 November 2026, finding 12, over real HTTP on both backends: a client that
 * rotates through the addresses of its IPv6 /64 shares one per-IP counter (here the offers limit,
 * 120 comparisons an hour), while another /64, and an IPv4 client, keep their own.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_LIMITS } from '../../src/features/net-sheet/public/estimate-limits.server.ts';
import { expectJson, expectTooMany } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { estimateResponse } from '../support/schemas.ts';

const HOUR = 3600;
const QUICK = { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 };
const OFFERS = [
  { price: 800000, concessions: 0, closing_date: '2027-03-31', financing: 'cash' },
  { price: 790000, concessions: 0, closing_date: '2027-03-31', financing: 'conventional' },
];
const group = () => randomInt(0x10000).toString(16);
/** A /64 of the documentation prefix no other test uses, and an address in it with random host bits. */
const prefix = () => `2001:db8:${group()}:${group()}`;
const hostIn = (net: string) => `${net}:${group()}:${group()}:${group()}:${group()}`;

describe.each(BACKENDS)('per-IP limits of IPv6 clients on %s', (backend) => {
  const suite = useAuthSuite(backend, 'ipv6-limits');

  it('every address of one /64 counts against one limit; another /64 and the IPv4-mapped form are apart', async () => {
    const { limit } = ESTIMATE_LIMITS.offersPerIp;
    const { estimate } = await expectJson(await suite.client().post('/api/estimates', QUICK), 201, estimateResponse);
    const body = { estimate_uuid: estimate.uuid, offers: OFFERS };
    const rotating = prefix();
    const statuses: number[] = [];
    // Each request from a new address of the /64, as a client rotating its addresses sends them.
    for (let start = 0; start < limit; start += 40) {
      const round = Array.from({ length: Math.min(40, limit - start) }, () =>
        suite.client({ ip: hostIn(rotating) }).post('/api/offers', body),
      );
      for (const response of await Promise.all(round)) {
        statuses.push(response.status);
        await response.body?.cancel();
      }
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(limit);
    await expectTooMany(await suite.client({ ip: hostIn(rotating) }).post('/api/offers', body), HOUR);
    // Written differently (upper case, full form), the same /64 is still refused.
    const [a = '', b = '', c = '', d = ''] = rotating.split(':');
    const fullForm = [a, b, c, d].map((part) => part.padStart(4, '0').toUpperCase()).join(':');
    await expectTooMany(await suite.client({ ip: `${fullForm}:0:0:0:1` }).post('/api/offers', body), HOUR);

    const neighbour = await suite.client({ ip: hostIn(prefix()) }).post('/api/offers', body);
    expect(neighbour.status, await neighbour.clone().text()).toBe(201);
  });

  it('an IPv4 client reached through a dual-stack socket (::ffff:a.b.c.d) is counted as its IPv4 address', async () => {
    const { limit } = ESTIMATE_LIMITS.offersPerIp;
    const { estimate } = await expectJson(await suite.client().post('/api/estimates', QUICK), 201, estimateResponse);
    const body = { estimate_uuid: estimate.uuid, offers: OFFERS };
    const ipv4 = `198.51.${randomInt(256)}.${randomInt(1, 255)}`;
    const spellings = [ipv4, `::ffff:${ipv4}`];
    const statuses: number[] = [];
    for (let start = 0; start < limit; start += 40) {
      const round = Array.from({ length: Math.min(40, limit - start) }, (_, offset) =>
        suite.client({ ip: spellings[(start + offset) % 2] }).post('/api/offers', body),
      );
      for (const response of await Promise.all(round)) {
        statuses.push(response.status);
        await response.body?.cancel();
      }
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(limit);
    await expectTooMany(await suite.client({ ip: `::ffff:${ipv4}` }).post('/api/offers', body), HOUR);
    await expectTooMany(await suite.client({ ip: ipv4 }).post('/api/offers', body), HOUR);
  });
});
