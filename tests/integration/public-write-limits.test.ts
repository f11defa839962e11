/**
 * The per-IP limits of the public writes that had none (estimates, the reverse solve, offers,
 * unsubscribe and its undo, verify-email, reset-password), over real HTTP on both backends: one
 * address gets 429 with Retry-After after its limit and the refused request writes nothing, another
 * address is unaffected, and a client of this machine (loopback) gets no per-IP limit. Leads,
 * send-estimate and the other account routes have theirs tested in lead-limits.test.ts and
 * auth-security.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LIMITS } from '../../src/platform/rate-limit.server.ts';
import { unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import { ESTIMATE_LIMITS } from '../../src/features/net-sheet/public/estimate-limits.server.ts';
import { LEAD_LIMITS } from '../../src/features/lead-origin/public/lead-limits.server.ts';
import { expectJson, expectTooMany } from '../support/api-suite.ts';
import {
  createAccount,
  lastLinkToken,
  signupBody,
  TEST_AUTH,
  useAuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { countRows } from '../support/fixtures.ts';
import { estimateResponse } from '../support/schemas.ts';

const HOUR = 3600;
const QUICK = { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 };
const REVERSE = { agent_slug: 'alexmorgan', target_net: 300000, mortgage_payoff: 450000 };
const OFFERS = [
  { price: 800000, concessions: 0, closing_date: '2027-03-31', financing: 'cash' },
  { price: 790000, concessions: 0, closing_date: '2027-03-31', financing: 'conventional' },
];

describe.each(BACKENDS)('per-IP limits of the public writes on %s', (backend) => {
  const suite = useAuthSuite(backend, 'public-write-limits');
  const signer = unsubscribeSigner(TEST_AUTH.sessionKey);

  /** Sends `count` requests, `send(i)`, fifty at a time (concurrent estimates share INSERTs); answers the statuses. */
  async function burst(count: number, send: (index: number) => Promise<Response>): Promise<number[]> {
    const statuses: number[] = [];
    for (let start = 0; start < count; start += 50) {
      const round = Array.from({ length: Math.min(50, count - start) }, (_, offset) => send(start + offset));
      for (const response of await Promise.all(round)) {
        statuses.push(response.status);
        await response.body?.cancel();
      }
    }
    return statuses;
  }

  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>(
      (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
      {},
    );

  const count = async (sql: string, params: unknown[] = []) => {
    const [row] = await suite.db.query<{ n: number }>(sql, params);
    return row?.n ?? 0;
  };
  const comparisons = () => count('SELECT count(*)::int AS n FROM offer_comparisons');
  const suppressed = (email: string) =>
    count('SELECT count(*)::int AS n FROM email_suppressions WHERE email = $1', [email]);

  it('estimates: 600 an hour per address, exactly, also when they arrive together; quick, detailed and reverse share it', async () => {
    const { limit } = ESTIMATE_LIMITS.estimatesPerIp;
    const office = suite.client();
    const before = await countRows(suite.db, 'estimates');
    const statuses = await burst(limit + 5, () => office.post('/api/estimates', QUICK));
    expect(tally(statuses)).toEqual({ 201: limit, 429: 5 });
    expect(await countRows(suite.db, 'estimates')).toBe(before + limit);

    await expectTooMany(await office.post('/api/estimates', QUICK), HOUR);
    await expectTooMany(await office.post('/api/estimates', { ...QUICK, details: {} }), HOUR);
    await expectTooMany(await office.post('/api/estimates/reverse', REVERSE), HOUR);
    expect(await countRows(suite.db, 'estimates')).toBe(before + limit);

    await expectJson(await suite.client().post('/api/estimates', QUICK), 201, estimateResponse);
    expect((await suite.client().post('/api/estimates', { ...QUICK, details: {} })).status).toBe(201);
    expect((await suite.client().post('/api/estimates/reverse', REVERSE)).status).toBe(201);
  });

  it('a quick estimate from an address of its own still makes one round trip, and an unknown agent is still 404', async () => {
    const client = suite.client();
    const before = suite.db.roundTrips;
    await expectJson(await client.post('/api/estimates', QUICK), 201, estimateResponse);
    expect(suite.db.roundTrips - before).toBe(1);
    expect((await client.post('/api/estimates', { ...QUICK, agent_slug: 'nosuchagent999' })).status).toBe(404);
  });

  it('offers: 120 comparisons an hour per address', async () => {
    const { limit } = ESTIMATE_LIMITS.offersPerIp;
    const { estimate } = await expectJson(await suite.client().post('/api/estimates', QUICK), 201, estimateResponse);
    const body = { estimate_uuid: estimate.uuid, offers: OFFERS };
    const office = suite.client();
    const before = await comparisons();
    expect(tally(await burst(limit, () => office.post('/api/offers', body)))).toEqual({ 201: limit });
    await expectTooMany(await office.post('/api/offers', body), HOUR);
    expect(await comparisons()).toBe(before + limit);
    expect((await suite.client().post('/api/offers', body)).status).toBe(201);
  });

  it('unsubscribe and its undo: 120 an hour per address together', async () => {
    const { limit } = LEAD_LIMITS.unsubscribePerIp;
    const mailProvider = suite.client();
    const address = (index: number) => `reader.${index}.${randomBytes(4).toString('hex')}@example.com`;
    const unsubscribe = (client: Client, email: string) =>
      client.post('/api/email/unsubscribe', { token: signer.token(email) });
    const statuses = await burst(limit, (index) => unsubscribe(mailProvider, address(index)));
    expect(tally(statuses)).toEqual({ 200: limit });

    const late = address(limit);
    await expectTooMany(await unsubscribe(mailProvider, late), HOUR);
    expect(await suppressed(late)).toBe(0);
    const done = address(limit + 1);
    await expectJson(await unsubscribe(suite.client(), done), 200, z.object({ success: z.literal(true) }));
    await expectTooMany(
      await mailProvider.send('DELETE', '/api/email/unsubscribe', { token: signer.token(done) }),
      HOUR,
    );
    expect(await suppressed(done)).toBe(1);
  });

  it('verify-email: 30 an hour per address; the refused link still works from another', async () => {
    const signup = signupBody();
    expect((await suite.client().post('/api/auth/signup', signup)).status).toBe(201);
    await suite.settle();
    const token = lastLinkToken(suite.outbox, 'verify-email', signup.email);
    const guesser = suite.client();
    const guesses = await burst(LIMITS.verifyPerIp.limit, () =>
      guesser.post('/api/auth/verify-email', { token: randomBytes(32).toString('base64url') }),
    );
    expect(tally(guesses)).toEqual({ 400: LIMITS.verifyPerIp.limit });
    await expectTooMany(await guesser.post('/api/auth/verify-email', { token }), HOUR);
    const status = () =>
      count("SELECT count(*)::int AS n FROM agents WHERE email = $1 AND status = 'pending'", [signup.email]);
    expect(await status()).toBe(1);
    expect((await suite.client().post('/api/auth/verify-email', { token })).status).toBe(200);
    expect(await status()).toBe(0);
  });

  it('reset-password: 30 an hour per address; the refused reset changes no password', async () => {
    const account = await createAccount(suite);
    expect((await suite.client().post('/api/auth/forgot-password', { email: account.email })).status).toBe(200);
    await suite.settle();
    const token = lastLinkToken(suite.outbox, 'reset-password', account.email);
    const guesser = suite.client();
    const guesses = await burst(LIMITS.resetPerIp.limit, () =>
      guesser.post('/api/auth/reset-password', {
        token: randomBytes(32).toString('base64url'),
        // Long enough for the schema (15, decision 0047), so each guess reaches the limiter and the token check.
        password: 'a guessed password 1',
      }),
    );
    expect(tally(guesses)).toEqual({ 400: LIMITS.resetPerIp.limit });
    await expectTooMany(
      await guesser.post('/api/auth/reset-password', { token, password: 'a new password here' }),
      HOUR,
    );
    const login = (password: string) => suite.client().post('/api/auth/login', { email: account.email, password });
    expect((await login(account.password)).status).toBe(200);
    expect(
      (await suite.client().post('/api/auth/reset-password', { token, password: 'a new password here' })).status,
    ).toBe(200);
    expect((await login('a new password here')).status).toBe(200);
  });

  it('a client of this machine (loopback) gets none of these per-IP limits', async () => {
    const local = suite.client({ ip: '127.0.0.1' });
    const guesses = await burst(LIMITS.verifyPerIp.limit + 5, () =>
      local.post('/api/auth/verify-email', { token: randomBytes(32).toString('base64url') }),
    );
    expect(tally(guesses)).toEqual({ 400: LIMITS.verifyPerIp.limit + 5 });
    const statuses = await burst(LEAD_LIMITS.unsubscribePerIp.limit + 5, (index) =>
      local.post('/api/email/unsubscribe', { token: signer.token(`local.${index}@example.com`) }),
    );
    expect(tally(statuses)).toEqual({ 200: LEAD_LIMITS.unsubscribePerIp.limit + 5 });
  });
});
