/**
 * POST /api/estimates and GET /api/estimates/{uuid} over real HTTP, on both backends.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import {
  anyString,
  expectError,
  expectFieldError,
  expectJson,
  matching,
  UUID,
  useApiSuite,
} from '../support/api-suite.ts';
import { estimateResponse } from '../support/schemas.ts';
import { countRows, createAgent, setAgentSettings } from '../support/fixtures.ts';

describe.each(BACKENDS)('estimates on %s', (backend) => {
  const suite = useApiSuite(backend, 'estimates');
  const create = (body: unknown) => suite.api.postJson('/api/estimates', body);
  const createOk = async (body: unknown) => (await expectJson(await create(body), 201, estimateResponse)).estimate;

  describe('POST /api/estimates', () => {
    it.each([
      ['a string with commas', '780,200', 450000],
      ['a number', 780200, 450000],
      ['a string with a dollar sign and cents', '$780,200.00', '450,000'],
    ])('computes the worked example with the sale price as %s', async (_label, salePrice, payoff) => {
      const before = Date.now();
      const response = await create({ agent_slug: 'alexmorgan', sale_price: salePrice, mortgage_payoff: payoff });
      const body = await expectJson(response, 201, estimateResponse);
      expect(Object.keys(body).sort()).toEqual(['estimate', 'success']);
      expect(body.success).toBe(true);
      const { estimate } = body;
      expect(estimate).toEqual({
        uuid: matching(UUID),
        agent_id: suite.test.featuredAgent.id,
        agent_slug: 'alexmorgan',
        sale_price: 780200,
        mortgage_payoff: 450000,
        commission: 46812,
        commission_percent: 6,
        transfer_tax: 3122,
        transfer_tax_rate_per_1000: 4,
        lawyer_fee: 750,
        recording_fee: 175,
        net_to_seller: 279341,
        recipient_name: null,
        created_at: anyString(),
      });
      const createdAt = Date.parse(estimate.created_at);
      expect(estimate.created_at).toBe(new Date(createdAt).toISOString());
      expect(createdAt).toBeGreaterThan(before - 60_000);
      expect(createdAt).toBeLessThan(Date.now() + 60_000);
    });

    it('gives every estimate its own uuid', async () => {
      const first = await createOk({ agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 0 });
      const second = await createOk({ agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 0 });
      expect(first.uuid).not.toBe(second.uuid);
    });

    it('trims the recipient name', async () => {
      const estimate = await createOk({
        agent_slug: 'alexmorgan',
        sale_price: 500000,
        mortgage_payoff: 100000,
        recipient_name: '   Pat Smith \t ',
      });
      expect(estimate.recipient_name).toBe('Pat Smith');
    });

    it('stores a blank recipient name as none', async () => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: 500000, recipient_name: '   ' });
      expect(estimate.recipient_name).toBeNull();
    });

    it('accepts a 100-character recipient name', async () => {
      const name = 'N'.repeat(100);
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: 500000, recipient_name: name });
      expect(estimate.recipient_name).toBe(name);
    });

    it.each([
      ['missing', {}],
      ['null', { mortgage_payoff: null }],
      ['an empty string', { mortgage_payoff: '' }],
    ])('treats a payoff that is %s as $0', async (_label, payoff) => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: 500000, ...payoff });
      expect(estimate.mortgage_payoff).toBe(0);
      // 500,000: commission 30,000; tax 1,000 steps of $500 at $2 = 2,000; fees 750 + 175.
      expect(estimate.commission).toBe(30000);
      expect(estimate.transfer_tax).toBe(2000);
      expect(estimate.net_to_seller).toBe(500000 - 30000 - 2000 - 750 - 175);
    });

    it('answers a negative net, not an error, when the payoff is above the price', async () => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: 300000, mortgage_payoff: 400000 });
      expect(estimate).toMatchObject({
        sale_price: 300000,
        mortgage_payoff: 400000,
        commission: 18000,
        transfer_tax: 1200,
        lawyer_fee: 750,
        recording_fee: 175,
        net_to_seller: -120125,
      });
    });

    it('accepts the smallest price, $10,000, with nothing owed', async () => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: '10,000', mortgage_payoff: 0 });
      expect(estimate).toMatchObject({ sale_price: 10000, mortgage_payoff: 0 });
    });

    it('accepts the largest price, $100,000,000', async () => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: '100,000,000', mortgage_payoff: 0 });
      expect(estimate).toMatchObject({
        sale_price: 100000000,
        commission: 6000000,
        transfer_tax: 400000,
        net_to_seller: 100000000 - 6000000 - 400000 - 750 - 175,
      });
    });

    it('keeps cents: a price of 500,000.50 is taxed on one more started $500', async () => {
      const estimate = await createOk({ agent_slug: 'alexmorgan', sale_price: '500,000.50', mortgage_payoff: '0.25' });
      expect(estimate).toMatchObject({
        sale_price: 500000.5,
        mortgage_payoff: 0.25,
        commission: 30000.03,
        transfer_tax: 2002,
        net_to_seller: 467073.22,
      });
    });

    it("uses the agent's own settings when they have them", async () => {
      const agent = await createAgent(suite.db);
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: 1250_50,
        recordingFeeCents: 200_00,
        transferTaxRatePer1000: 4.5,
        commissionPercent: 5.5,
      });
      const estimate = await createOk({ agent_slug: agent.slug, sale_price: '500,000', mortgage_payoff: '100,000' });
      expect(estimate).toEqual({
        uuid: matching(UUID),
        agent_id: agent.id,
        agent_slug: agent.slug,
        sale_price: 500000,
        mortgage_payoff: 100000,
        commission: 27500,
        commission_percent: 5.5,
        transfer_tax: 2250,
        transfer_tax_rate_per_1000: 4.5,
        lawyer_fee: 1250.5,
        recording_fee: 200,
        net_to_seller: 368799.5,
        recipient_name: null,
        created_at: anyString(),
      });
    });

    it('uses the system defaults for an agent without settings', async () => {
      const agent = await createAgent(suite.db);
      const estimate = await createOk({ agent_slug: agent.slug, sale_price: '780,200', mortgage_payoff: 450000 });
      expect(estimate).toMatchObject({
        agent_id: agent.id,
        commission: 46812,
        commission_percent: 6,
        transfer_tax: 3122,
        transfer_tax_rate_per_1000: 4,
        lawyer_fee: 750,
        recording_fee: 175,
        net_to_seller: 279341,
      });
    });

    it('uses the system default for each setting the agent left empty', async () => {
      const agent = await createAgent(suite.db);
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: null,
        recordingFeeCents: null,
        transferTaxRatePer1000: null,
        commissionPercent: 5,
      });
      const estimate = await createOk({ agent_slug: agent.slug, sale_price: 500000, mortgage_payoff: 0 });
      expect(estimate).toMatchObject({
        commission: 25000,
        commission_percent: 5,
        transfer_tax: 2000,
        lawyer_fee: 750,
        recording_fee: 175,
        net_to_seller: 500000 - 25000 - 2000 - 750 - 175,
      });
    });

    it('answers 404 for an agent slug nobody has, and stores nothing', async () => {
      const before = await countRows(suite.db, 'estimates');
      const body = await expectError(
        await create({ agent_slug: 'nosuchagent999', sale_price: 500000, mortgage_payoff: 0 }),
        404,
        'Agent not found',
      );
      expect(body.fields).toEqual({ agent_slug: 'Agent not found' });
      expect(await countRows(suite.db, 'estimates')).toBe(before);
    });

    it('answers 404 for an agent who is not active', async () => {
      const agent = await createAgent(suite.db, { status: 'pending' });
      await expectError(await create({ agent_slug: agent.slug, sale_price: 500000 }), 404, 'Agent not found');
    });

    const valid = { agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 100000 };
    it.each([
      ['sale_price is missing', { sale_price: undefined }, 'sale_price', 'Sale price is required'],
      ['sale_price is null', { sale_price: null }, 'sale_price', 'Sale price is required'],
      ['sale_price is empty', { sale_price: '' }, 'sale_price', 'Sale price is required'],
      ['sale_price is 0', { sale_price: 0 }, 'sale_price', 'Sale price must be at least $10,000'],
      ['sale_price is "0.00"', { sale_price: '0.00' }, 'sale_price', 'Sale price must be at least $10,000'],
      ['sale_price is 1', { sale_price: 1 }, 'sale_price', 'Sale price must be at least $10,000'],
      ['sale_price is "9,999.99"', { sale_price: '9,999.99' }, 'sale_price', 'Sale price must be at least $10,000'],
      [
        'sale_price is above $100,000,000',
        { sale_price: 100000000.01 },
        'sale_price',
        'Sale price must be at most $100,000,000',
      ],
      [
        'sale_price is "100,000,001"',
        { sale_price: '100,000,001' },
        'sale_price',
        'Sale price must be at most $100,000,000',
      ],
      ['sale_price is negative', { sale_price: -5 }, 'sale_price', 'Sale price cannot be negative'],
      ['sale_price is true', { sale_price: true }, 'sale_price', 'Sale price must be a dollar amount, like 450,000'],
      [
        'sale_price is an object',
        { sale_price: { amount: 5 } },
        'sale_price',
        'Sale price must be a dollar amount, like 450,000',
      ],
      [
        'sale_price is an array',
        { sale_price: [500000] },
        'sale_price',
        'Sale price must be a dollar amount, like 450,000',
      ],
      [
        'sale_price is not a number',
        { sale_price: 'five hundred' },
        'sale_price',
        'Sale price must be a dollar amount, like 450,000',
      ],
      [
        'sale_price has three decimals',
        { sale_price: '500000.123' },
        'sale_price',
        'Sale price must be a dollar amount, like 450,000',
      ],
      ['mortgage_payoff is negative', { mortgage_payoff: -1 }, 'mortgage_payoff', 'Mortgage payoff cannot be negative'],
      [
        'mortgage_payoff is "-450,000"',
        { mortgage_payoff: '-450,000' },
        'mortgage_payoff',
        'Mortgage payoff cannot be negative',
      ],
      [
        'mortgage_payoff is above $100,000,000',
        { mortgage_payoff: 200000000 },
        'mortgage_payoff',
        'Mortgage payoff must be at most $100,000,000',
      ],
      [
        'mortgage_payoff is true',
        { mortgage_payoff: true },
        'mortgage_payoff',
        'Mortgage payoff must be a dollar amount, like 450,000',
      ],
      ['recipient_name is a number', { recipient_name: 5 }, 'recipient_name', 'Name must be text'],
      [
        'recipient_name has 101 characters',
        { recipient_name: 'N'.repeat(101) },
        'recipient_name',
        'Name must be at most 100 characters',
      ],
      ['agent_slug is missing', { agent_slug: undefined }, 'agent_slug', 'Agent is required'],
      ['agent_slug is blank', { agent_slug: '  ' }, 'agent_slug', 'Agent is required'],
    ])('answers 400 when %s, and stores nothing', async (_label, change, field, message) => {
      const before = await countRows(suite.db, 'estimates');
      await expectFieldError(await create({ ...valid, ...change }), field, message);
      expect(await countRows(suite.db, 'estimates')).toBe(before);
    });

    it('names every bad field at once', async () => {
      const body = await expectError(await create({ sale_price: 0, mortgage_payoff: -1, recipient_name: 7 }), 400);
      expect(body.fields).toEqual({
        agent_slug: 'Agent is required',
        sale_price: 'Sale price must be at least $10,000',
        mortgage_payoff: 'Mortgage payoff cannot be negative',
        recipient_name: 'Name must be text',
      });
      expect(Object.values(body.fields)).toContain(body.error);
    });
  });

  describe('GET /api/estimates/{uuid}', () => {
    it('answers the stored estimate with the same figures', async () => {
      const created = await createOk({
        agent_slug: 'alexmorgan',
        sale_price: '780,200',
        mortgage_payoff: 450000,
        recipient_name: ' Pat ',
      });
      const body = await expectJson(await suite.api.fetch(`/api/estimates/${created.uuid}`), 200, estimateResponse);
      expect(body).toEqual({ success: true, estimate: created });
      expect(body.estimate).toMatchObject({ net_to_seller: 279341, recipient_name: 'Pat' });
    });

    it('finds the estimate by its uuid in capitals too', async () => {
      const created = await createOk({ agent_slug: 'alexmorgan', sale_price: 400000 });
      const body = await expectJson(
        await suite.api.fetch(`/api/estimates/${created.uuid.toUpperCase()}`),
        200,
        estimateResponse,
      );
      expect(body.estimate).toEqual(created);
    });

    it("keeps an estimate's figures when the agent changes their settings later", async () => {
      const agent = await createAgent(suite.db);
      const created = await createOk({ agent_slug: agent.slug, sale_price: 500000, mortgage_payoff: 0 });
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: 2000_00,
        recordingFeeCents: 500_00,
        transferTaxRatePer1000: 8,
        commissionPercent: 2,
      });
      const body = await expectJson(await suite.api.fetch(`/api/estimates/${created.uuid}`), 200, estimateResponse);
      expect(body.estimate).toEqual(created);
      expect(body.estimate.commission_percent).toBe(6);
    });

    it('answers 404 "Estimate not found" for a uuid nobody has', async () => {
      const body = await expectError(
        await suite.api.fetch(`/api/estimates/${randomUUID()}`),
        404,
        'Estimate not found',
      );
      expect(body.fields).toEqual({});
    });

    it.each([
      'not-a-uuid',
      '12345',
      '8b0c7f4e3a1d4c559e0f2b6a7d9c1e42',
      '8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e4z',
      "x'%20OR%20'1'='1",
    ])('answers 400 for the malformed id %s', async (id) => {
      const body = await expectError(await suite.api.fetch(`/api/estimates/${id}`), 400, 'Estimate id is not valid');
      expect(body.fields).toEqual({ uuid: 'Estimate id is not valid' });
    });
  });
});
