/**
 * The detailed net sheet over real HTTP on both backends: a detailed estimate stored with its sheet,
 * the reverse solve, the price range and offers side by side. Expected figures are worked out here
 * by hand from the stated rules (research: shared/research/long-island-seller-costs.md; fees from
 * li-fees.ts), not read back from the engine.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
  rangeAnswerSchema,
  reverseAnswerSchema,
  sheetAnswerSchema,
  type SheetAnswer,
} from '../../src/features/net-sheet/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { estimateResponse } from '../support/schemas.ts';
import { countRows, createAgent, setAgentSettings } from '../support/fixtures.ts';

/** A Nassau sale with two liens, a per-diem, concessions and a repair (costs in dollars, by hand). */
const NASSAU = {
  sale_price: 800000,
  mortgage_payoff: 1,
  details: {
    listing_commission_percent: 2.5,
    buyer_agent_percent: 2.5,
    seller_concessions: '5,000',
    county: 'Nassau',
    closing_date: '2027-03-31',
    liens: [
      { label: 'First mortgage', payoff: 400000, per_diem_interest: 55.25, payoff_date: '2027-03-01' },
      { label: 'Home equity line', payoff: '50,000' },
    ],
    other_lines: [{ name: 'Roof repair', amount: 3500 }],
  },
};
/** Every line that does not move with the price: concessions, payoffs, 30 days × $55.25, attorney,
 * Nassau per lien (satisfaction $50.50, block $300, tax map $270) × 2, TP-584 $5, title closer
 * $250 × 2 (the agent's default), the repair. */
const NASSAU_FIXED = 5000 + 400000 + 50000 + 1657.5 + 750 + 2 * (50.5 + 300 + 270) + 5 + 2 * 250 + 3500;
/** The net at a price: commissions 2.5 % + 2.5 %, transfer tax $2 per started $500. */
const nassauNet = (price: number) => {
  const cents = Math.round(price * 100);
  const commission = 2 * Math.floor((cents * 250 * 2 + 10_000) / 20_000); // each side rounded half-up
  const tax = Math.ceil(cents / 50_000) * 200;
  return (cents - commission - tax - Math.round(NASSAU_FIXED * 100)) / 100;
};

/** The quick estimate at system defaults: 6 %, $2 per started $500, $750 + $175. */
const quickNet = (price: number, payoff: number) => {
  const cents = Math.round(price * 100);
  const commission = Math.floor((cents * 600 * 2 + 10_000) / 20_000);
  return (cents - Math.round(payoff * 100) - commission - Math.ceil(cents / 50_000) * 200 - 750_00 - 175_00) / 100;
};

const amountOf = (sheet: SheetAnswer, key: string) => sheet.lines.find((line) => line.key === key)?.amount;

describe.each(BACKENDS)('the detailed net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-api');
  const post = (path: string, body: unknown) => suite.api.postJson(path, body);
  const newAgent = async () => (await createAgent(suite.db)).slug;
  const detailed = async (body: unknown) =>
    expectJson(await post('/api/estimates', body), 201, detailedEstimateAnswerSchema);
  const sheetOf = async (uuid: string) =>
    expectJson(await suite.api.fetch(`/api/estimates/${uuid}/sheet`), 200, sheetAnswerSchema);

  describe('POST /api/estimates with details', () => {
    it('computes a Nassau sale with two liens line by line and stores it', async () => {
      const agent_slug = await newAgent();
      const body = await detailed({ agent_slug, ...NASSAU });
      expect(body.sheet.lines.map((line) => [line.key, line.amount])).toEqual([
        ['sale_price', -800000],
        ['listing_commission', 20000],
        ['buyer_agent_commission', 20000],
        ['seller_concessions', 5000],
        ['lien_1_payoff', 400000],
        ['lien_1_per_diem', 1657.5],
        ['lien_2_payoff', 50000],
        ['transfer_tax', 3200],
        ['attorney_fee', 750],
        ['nassau_satisfaction_recording', 101],
        ['nassau_block_fee', 600],
        ['nassau_tax_map_verification', 540],
        ['tp584_filing', 5],
        ['title_closer_pickup', 500],
        ['other_1', 3500],
      ]);
      expect(body.sheet.net_to_seller).toBe(294146.5);
      expect(body.sheet.net_to_seller).toBe(nassauNet(800000));
      expect(body.sheet.closing_date).toBe('2027-03-31');
      expect(body.sheet.notes.map((note) => note.key)).toEqual(['firpta', 'it2663', 'disclaimer']);
      // The liens are the payoff; the estimate's net is its sheet's, which it carries.
      expect(body.estimate).toMatchObject({ sale_price: 800000, mortgage_payoff: 450000, net_to_seller: 294146.5 });
      expect(body.estimate.sheet).toEqual(body.sheet);
      const shared = await expectJson(
        await suite.api.fetch(`/api/estimates/${body.estimate.uuid}`),
        200,
        z.object({ success: z.literal(true), estimate: z.object({ net_to_seller: z.number(), sheet: z.unknown() }) }),
      );
      expect(shared.estimate).toMatchObject({ net_to_seller: 294146.5, sheet: body.sheet });

      const stored = await sheetOf(body.estimate.uuid);
      expect(stored.sheet).toEqual(body.sheet);
      expect(stored.details).toEqual(NASSAU.details);
    });

    it('keeps the shared sheet when the agent and the admin change their settings later', async () => {
      const agent = await createAgent(suite.db);
      const body = await detailed({ agent_slug: agent.slug, ...NASSAU });
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: 2000_00,
        recordingFeeCents: 300_00,
        transferTaxRatePer1000: 5,
        commissionPercent: 4,
      });
      await suite.db.query(
        `UPDATE net_sheet_fees SET overrides = '{"nassau_block_fee": {"cents": 99900, "checked": "2026-12-01", "source": "test"}}'`,
      );
      try {
        const later = await sheetOf(body.estimate.uuid);
        expect(later.sheet).toEqual(body.sheet);
        const again = await detailed({ agent_slug: agent.slug, ...NASSAU });
        expect(amountOf(again.sheet, 'nassau_block_fee')).toBe(2 * 999);
        expect(amountOf(again.sheet, 'attorney_fee')).toBe(2000);
      } finally {
        await suite.db.query(`UPDATE net_sheet_fees SET overrides = '{}'`);
      }
    });

    it("charges the seller's attorney fee, credits a credit and prices a percent line, and stores them", async () => {
      const agent_slug = await newAgent();
      const body = await detailed({
        agent_slug,
        sale_price: 600000,
        mortgage_payoff: 0,
        details: {
          attorney_fee: '2,000',
          other_lines: [
            { name: 'Fuel oil in the tank', amount: '450.75', credit: true },
            { name: 'Flip tax', percent: 2 },
          ],
        },
      });
      // By hand: $2,000 attorney (not the agent's $750), +$450.75 credit, 2 % of $600,000 = $12,000.
      expect(amountOf(body.sheet, 'attorney_fee')).toBe(2000);
      expect(
        body.sheet.lines.filter((line) => line.group === 'other').map((line) => [line.label, line.amount]),
      ).toEqual([
        ['Fuel oil in the tank', -450.75],
        ['Flip tax (2%)', 12000],
      ]);
      const stored = await sheetOf(body.estimate.uuid);
      expect(stored.sheet).toEqual(body.sheet);
      expect(stored.details).toMatchObject({ attorney_fee: '2,000' });
      // What an empty attorney field means on the refine form: the agent's usual fee.
      expect(stored.defaults.attorney_fee).toBe(750);
      // The reverse solve and the range carry the percent line as the price moves.
      const target = body.sheet.net_to_seller;
      const reverse = await expectJson(
        await post('/api/estimates/reverse', {
          agent_slug,
          target_net: target,
          mortgage_payoff: 0,
          details: stored.details ?? {},
        }),
        201,
        reverseAnswerSchema,
      );
      expect(reverse.sale_price).toBe(600000);
    });

    it("uses the agent's defaults for what the seller leaves out", async () => {
      const agent = await createAgent(suite.db);
      await suite.db.query(
        `INSERT INTO agent_settings (agent_id, default_commission_percent, default_listing_percent,
                default_buyer_agent_percent, default_days_to_closing, default_title_closer_pickup,
                default_payoff_bank_attorney, default_rp5217_on_seller)
         VALUES ($1, 5.25, 3.25, 2, 30, false, true, true)
         ON CONFLICT (agent_id) DO UPDATE SET default_commission_percent = 5.25, default_listing_percent = 3.25,
                default_buyer_agent_percent = 2, default_days_to_closing = 30, default_title_closer_pickup = false,
                default_payoff_bank_attorney = true, default_rp5217_on_seller = true`,
        [agent.id],
      );
      const before = new Date();
      const body = await detailed({
        agent_slug: agent.slug,
        sale_price: 600000,
        mortgage_payoff: 200000,
        details: { county: 'Suffolk', suffolk_lots: 2 },
      });
      const keys = body.sheet.lines.map((line) => line.key);
      // Neither side given: one line at the estimate's 5.25 % (3.25 + 2 %), rounded once (decision 0037).
      expect(amountOf(body.sheet, 'commission')).toBe(19500 + 12000);
      expect(keys).not.toContain('listing_commission');
      expect(keys).not.toContain('title_closer_pickup');
      expect(amountOf(body.sheet, 'payoff_bank_attorney')).toBe(450);
      // Suffolk: mortgage verification $300 + satisfaction $60 per lien, lot verification $200 × 2 lots,
      // TP-584 $5, RP-5217 $125 and EA-5217 $5 on the seller by the agent's default.
      expect(amountOf(body.sheet, 'suffolk_mortgage_verification')).toBe(300);
      expect(amountOf(body.sheet, 'suffolk_satisfaction_recording')).toBe(60);
      expect(amountOf(body.sheet, 'suffolk_lot_verification')).toBe(400);
      expect(amountOf(body.sheet, 'rp5217_filing')).toBe(125);
      expect(amountOf(body.sheet, 'suffolk_ea5217')).toBe(5);
      expect(keys).not.toContain('recording_fee');
      // Closing: 30 days after the day it was made, on Long Island's calendar.
      const inThirty = (at: Date) =>
        new Date(
          Date.parse(`${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(at)}T00:00:00Z`) +
            30 * 86_400_000,
        )
          .toISOString()
          .slice(0, 10);
      expect([inThirty(before), inThirty(new Date())]).toContain(body.sheet.closing_date);
    });

    it('credits a paid Suffolk half and notes the East End and the mansion tax', async () => {
      const body = await detailed({
        agent_slug: await newAgent(),
        sale_price: 1000000,
        mortgage_payoff: 0,
        details: {
          county: 'Suffolk',
          town: 'Southampton',
          closing_date: '2027-02-15',
          property_taxes: { suffolk: { annual: 12000, first_half_paid: true } },
        },
      });
      // One Dec 1-Nov 30 bill (decision 0038): the seller's 76 of 365 days from Dec 1 to Feb 15,
      // $12,000 × 76 / 365 = $2,498.63, less the 1st half paid ($6,000): $3,501.37 credited.
      expect(amountOf(body.sheet, 'tax_suffolk')).toBe(-3501.37);
      expect(body.sheet.notes.map((note) => note.key)).toEqual([
        'mansion_tax',
        'east_end',
        'firpta',
        'it2663',
        'disclaimer',
      ]);
    });

    it('notes the price cliff at $999,999 and the mansion tax at $1,000,000', async () => {
      const agent_slug = await newAgent();
      const noteKeys = async (sale_price: number) =>
        (await detailed({ agent_slug, sale_price, details: {} })).sheet.notes.map((note) => note.key);
      expect(await noteKeys(999999)).toContain('mansion_tax_cliff');
      expect(await noteKeys(999999)).not.toContain('mansion_tax');
      expect(await noteKeys(1000000)).toContain('mansion_tax');
    });

    const valid = { agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 100000 };
    it.each([
      ['details is not an object', { details: 'Nassau' }, 'details'],
      ['details is null', { details: null }, 'details'],
      ['a detail is unknown', { details: { colour: 'blue' } }, 'details'],
      ['the county is Kings', { details: { county: 'Kings' } }, 'details.county'],
      ['five liens', { details: { liens: Array(5).fill({ label: 'Loan', payoff: 1 }) } }, 'details.liens'],
      ['a lien without a payoff', { details: { liens: [{ label: 'Loan' }] } }, 'details.liens.0.payoff'],
      ['a negative concession', { details: { seller_concessions: -1 } }, 'details.seller_concessions'],
      ['a percent above 20', { details: { buyer_agent_percent: 21 } }, 'details.buyer_agent_percent'],
      ['a closing date that is no date', { details: { closing_date: '31/03/2027' } }, 'details.closing_date'],
      ['21 other lines', { details: { other_lines: Array(21).fill({ name: 'x', amount: 1 }) } }, 'details.other_lines'],
      [
        'a 101-character line name',
        { details: { other_lines: [{ name: 'n'.repeat(101), amount: 1 }] } },
        'details.other_lines.0.name',
      ],
      ['a switch that is text', { details: { title_closer_pickup: 'yes' } }, 'details.title_closer_pickup'],
    ])('answers 400 when %s, and stores nothing', async (_label, change, field) => {
      const before = await countRows(suite.db, 'estimates');
      const body = await expectError(await post('/api/estimates', { ...valid, ...change }), 400);
      expect(Object.keys(body.fields)).toContain(field);
      expect(await countRows(suite.db, 'estimates')).toBe(before);
    });

    it('answers 404 for an agent nobody has', async () => {
      await expectError(
        await post('/api/estimates', { ...valid, agent_slug: 'nosuchagent999', details: {} }),
        404,
        'Agent not found',
      );
    });
  });

  describe('GET /api/estimates/{uuid}/sheet', () => {
    it("answers a quick estimate's lines as a sheet with the same net, and the agent's defaults", async () => {
      const created = await expectJson(
        await post('/api/estimates', { agent_slug: 'alexmorgan', sale_price: '780,200', mortgage_payoff: 450000 }),
        201,
        estimateResponse,
      );
      const body = await sheetOf(created.estimate.uuid);
      expect(body.details).toBeNull();
      expect(body.sheet.net_to_seller).toBe(created.estimate.net_to_seller);
      expect(body.sheet.lines.map((line) => [line.key, line.amount])).toEqual([
        ['sale_price', -780200],
        ['commission', 46812],
        ['lien_1_payoff', 450000],
        ['transfer_tax', 3122],
        ['attorney_fee', 750],
        ['recording_fee', 175],
      ]);
      expect(body.defaults).toMatchObject({
        listing_commission_percent: 3,
        buyer_agent_percent: 3,
        title_closer_pickup: true,
        payoff_bank_attorney: false,
        seller_pays_rp5217: false,
      });
    });

    it('answers 404 for an unknown estimate and 400 for a malformed id', async () => {
      await expectError(await suite.api.fetch(`/api/estimates/${randomUUID()}/sheet`), 404, 'Estimate not found');
      await expectError(await suite.api.fetch('/api/estimates/not-a-uuid/sheet'), 400, 'Estimate id is not valid');
    });
  });

  describe('POST /api/estimates/reverse', () => {
    const reverse = (body: unknown) => post('/api/estimates/reverse', body);

    it('answers the lowest whole-dollar price that nets the target (quick estimate)', async () => {
      const agent_slug = await newAgent();
      const before = await countRows(suite.db, 'estimates');
      const body = await expectJson(
        await reverse({ agent_slug, target_net: '300,000', mortgage_payoff: '450,000' }),
        201,
        reverseAnswerSchema,
      );
      expect(Number.isInteger(body.sale_price)).toBe(true);
      expect(quickNet(body.sale_price, 450000)).toBeGreaterThanOrEqual(300000);
      expect(quickNet(body.sale_price - 1, 450000)).toBeLessThan(300000);
      expect(body.estimate).toMatchObject({ sale_price: body.sale_price, mortgage_payoff: 450000 });
      expect(body.estimate.net_to_seller).toBe(quickNet(body.sale_price, 450000));
      expect(body.sheet.net_to_seller).toBe(body.estimate.net_to_seller);
      expect(await countRows(suite.db, 'estimates')).toBe(before + 1);
      const shared = await expectJson(
        await suite.api.fetch(`/api/estimates/${body.estimate.uuid}`),
        200,
        estimateResponse,
      );
      expect(shared.estimate).toEqual(body.estimate);
    });

    it('solves on the detailed sheet, exact across a transfer-tax step', async () => {
      const agent_slug = await newAgent();
      // The net just at the top of a $500 step: one dollar above it starts a new step.
      const target = nassauNet(800000);
      const body = await expectJson(
        await reverse({ agent_slug, target_net: target, details: NASSAU.details }),
        201,
        reverseAnswerSchema,
      );
      expect(body.sale_price).toBe(800000);
      expect(nassauNet(body.sale_price - 1)).toBeLessThan(target);
      expect(body.sheet.net_to_seller).toBe(target);
      expect((await sheetOf(body.estimate.uuid)).details).toEqual(NASSAU.details);
      // A cent more and the price crosses into the next step (whose tax costs $2 more).
      const above = await expectJson(
        await reverse({ agent_slug, target_net: target + 0.01, details: NASSAU.details }),
        201,
        reverseAnswerSchema,
      );
      expect(nassauNet(above.sale_price)).toBeGreaterThanOrEqual(target + 0.01);
      expect(nassauNet(above.sale_price - 1)).toBeLessThan(target + 0.01);
      expect(above.sale_price).toBeGreaterThan(800000);
    });

    it('answers the smallest price the calculator takes when even that nets more', async () => {
      const body = await expectJson(
        await reverse({ agent_slug: await newAgent(), target_net: 1, mortgage_payoff: 0 }),
        201,
        reverseAnswerSchema,
      );
      expect(body.sale_price).toBe(10000);
    });

    it('answers 422 on the target when no price up to $100,000,000 nets it, and stores nothing', async () => {
      const before = await countRows(suite.db, 'estimates');
      const body = await expectError(
        await reverse({ agent_slug: await newAgent(), target_net: '99,000,000', mortgage_payoff: '5,000,000' }),
        422,
        'No sale price up to $100,000,000 nets this amount',
      );
      expect(body.fields).toEqual({ target_net: 'No sale price up to $100,000,000 nets this amount' });
      expect(await countRows(suite.db, 'estimates')).toBe(before);
    });

    it.each([
      ['target_net is missing', {}, 'target_net', 'Target net is required'],
      ['target_net is 0', { target_net: 0 }, 'target_net', 'Target net must be at least $1'],
      ['target_net is text', { target_net: 'lots' }, 'target_net', 'Target net must be a dollar amount, like 450,000'],
      [
        'target_net is too large',
        { target_net: 100000000.01 },
        'target_net',
        'Target net must be at most $100,000,000',
      ],
      [
        'the payoff is negative',
        { target_net: 5, mortgage_payoff: -1 },
        'mortgage_payoff',
        'Mortgage payoff cannot be negative',
      ],
      [
        'a detail is wrong',
        { target_net: 5, details: { county: 'Kings' } },
        'details.county',
        'County must be Nassau or Suffolk',
      ],
    ])('answers 400 when %s', async (_label, change, field, message) => {
      await expectFieldError(await reverse({ agent_slug: 'alexmorgan', ...change }), field, message);
    });

    it('answers 404 for an unknown agent, 400 for malformed JSON, 415 for a form post', async () => {
      await expectError(await reverse({ agent_slug: 'nosuchagent999', target_net: 5 }), 404, 'Agent not found');
      const malformed = await suite.api.fetch('/api/estimates/reverse', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"agent_slug":',
      });
      await expectError(malformed, 400, 'The request body is not valid JSON');
      const form = await suite.api.fetch('/api/estimates/reverse', { method: 'POST', body: 'target_net=5' });
      await expectError(form, 415);
      await expectError(await suite.api.fetch('/api/estimates/reverse'), 405);
    });
  });

  describe('GET /api/estimates/{uuid}/range', () => {
    it('answers 41 prices from -10 % to +10 % on the stored sheet, its own price in the middle', async () => {
      const { estimate, sheet } = await detailed({ agent_slug: await newAgent(), ...NASSAU });
      const body = await expectJson(
        await suite.api.fetch(`/api/estimates/${estimate.uuid}/range`),
        200,
        rangeAnswerSchema,
      );
      expect(body.points).toHaveLength(41);
      expect(body.points[0]).toEqual({ sale_price: 720000, net_to_seller: nassauNet(720000) });
      expect(body.points[20]).toEqual({ sale_price: 800000, net_to_seller: sheet.net_to_seller });
      expect(body.points[40]).toEqual({ sale_price: 880000, net_to_seller: nassauNet(880000) });
      for (const point of body.points) expect(point.net_to_seller).toBe(nassauNet(point.sale_price));
    });

    it('takes the width and the number of points', async () => {
      const created = await expectJson(
        await post('/api/estimates', { agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 100000 }),
        201,
        estimateResponse,
      );
      const body = await expectJson(
        await suite.api.fetch(`/api/estimates/${created.estimate.uuid}/range?percent=5&points=3`),
        200,
        rangeAnswerSchema,
      );
      expect(body.points).toEqual(
        [475000, 500000, 525000].map((price) => ({
          sale_price: price,
          net_to_seller: quickNet(price, 100000),
        })),
      );
    });

    it.each([
      ['percent=0', 'percent', 'Percent must be at least 1'],
      ['percent=51', 'percent', 'Percent must be at most 50'],
      ['percent=ten', 'percent', 'Percent must be a number'],
      ['points=2', 'points', 'Points must be at least 3'],
      ['points=82', 'points', 'Points must be at most 81'],
      ['points=4.5', 'points', 'Points must be a whole number'],
    ])('answers 400 for ?%s', async (query, field, message) => {
      const created = await detailed({ agent_slug: 'alexmorgan', sale_price: 500000, details: {} });
      await expectFieldError(
        await suite.api.fetch(`/api/estimates/${created.estimate.uuid}/range?${query}`),
        field,
        message,
      );
    });

    it('answers 404 for an unknown estimate', async () => {
      await expectError(await suite.api.fetch(`/api/estimates/${randomUUID()}/range`), 404, 'Estimate not found');
    });
  });

  describe('offers side by side', () => {
    const offer = (price: number, extra: Record<string, unknown> = {}) => ({
      price,
      concessions: 0,
      closing_date: '2027-03-31',
      financing: 'conventional',
      ...extra,
    });

    it("weighs each offer on the estimate's sheet, marks the best, and shares them as one link", async () => {
      const { estimate } = await detailed({ agent_slug: await newAgent(), ...NASSAU });
      const offers = [
        offer(820000, { concessions: 15000, buyer_agent_percent: 2.5 }),
        offer(805000, { financing: 'cash', buyer_agent_percent: 2 }),
        offer(800000),
      ];
      const before = await countRows(suite.db, 'estimates');
      const body = await expectJson(
        await post('/api/offers', { estimate_uuid: estimate.uuid.toUpperCase(), offers }),
        201,
        comparisonAnswerSchema,
      );
      // Offer 1: $820,000, $15,000 concessions instead of the sheet's $5,000.
      const first = nassauNet(820000) - 10000;
      // Offer 2: $805,000, buyer's agent 2 % instead of 2.5 % (half a percent less), no concessions.
      const second = nassauNet(805000) + 805000 * 0.005 + 5000;
      // Offer 3: the sheet's own price and terms, but no concessions.
      const third = nassauNet(800000) + 5000;
      expect(body.comparison.offers.map((compared) => compared.net_to_seller)).toEqual([first, second, third]);
      const best = Math.max(first, second, third);
      expect(body.comparison.offers.map((compared) => compared.best)).toEqual([
        first === best,
        second === best,
        third === best,
      ]);
      expect(body.comparison.offers.map((compared) => compared.behind_best)).toEqual(
        [first, second, third].map((net) => Math.round((best - net) * 100) / 100),
      );
      expect(body.comparison.offers[1]).toMatchObject({ financing: 'cash', buyer_agent_percent: 2, price: 805000 });
      expect(body.comparison.offers[2]?.buyer_agent_percent).toBe(2.5);
      expect(body.comparison.estimate_uuid).toBe(estimate.uuid);
      expect(await countRows(suite.db, 'estimates')).toBe(before);

      const shared = await expectJson(
        await suite.api.fetch(`/api/offers/${body.comparison.uuid}`),
        200,
        comparisonAnswerSchema,
      );
      expect(shared).toEqual(body);
    });

    const comparisons = async () =>
      z.coerce
        .number()
        .parse((await suite.db.query<{ n: number }>('SELECT count(*) AS n FROM offer_comparisons'))[0]?.n);

    it.each([
      [
        'one offer',
        (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(500000)] }),
        'offers',
        'Compare at least 2 offers',
      ],
      [
        'five offers',
        (uuid: string) => ({ estimate_uuid: uuid, offers: Array(5).fill(offer(500000)) }),
        'offers',
        'Compare at most 4 offers',
      ],
      ['no estimate', () => ({ offers: [offer(1), offer(2)] }), 'estimate_uuid', 'Estimate is required'],
      [
        'a malformed estimate id',
        () => ({ estimate_uuid: 'x', offers: [offer(1), offer(2)] }),
        'estimate_uuid',
        'Estimate id is not valid',
      ],
      [
        'a price that is text',
        (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(1), { ...offer(1), price: 'lots' }] }),
        'offers.1.price',
        'Offer price must be a dollar amount, like 450,000',
      ],
      [
        'a bad financing',
        (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(1), offer(2, { financing: 'barter' })] }),
        'offers.1.financing',
        'Choose a financing type',
      ],
      [
        'a bad closing date',
        (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(1, { closing_date: 'soon' }), offer(2)] }),
        'offers.0.closing_date',
        'Closing date must be a date (YYYY-MM-DD)',
      ],
      [
        'a missing closing date',
        (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(1, { closing_date: '' }), offer(2)] }),
        'offers.0.closing_date',
        'Closing date is required',
      ],
      ['an unknown key', (uuid: string) => ({ estimate_uuid: uuid, offers: [offer(1), offer(2)], agent: 'x' }), '', ''],
    ])('answers 400 for %s, and stores nothing', async (_label, bodyFor, field, message) => {
      const { estimate } = await detailed({ agent_slug: 'alexmorgan', sale_price: 500000, details: {} });
      const before = await comparisons();
      const response = await post('/api/offers', bodyFor(estimate.uuid));
      if (field) await expectFieldError(response, field, message);
      else await expectError(response, 400);
      expect(await comparisons()).toBe(before);
    });

    it('answers 404 for an unknown estimate or comparison', async () => {
      const body = await expectError(
        await post('/api/offers', { estimate_uuid: randomUUID(), offers: [offer(500000), offer(510000)] }),
        404,
        'Estimate not found',
      );
      expect(body.fields).toEqual({ estimate_uuid: 'Estimate not found' });
      await expectError(await suite.api.fetch(`/api/offers/${randomUUID()}`), 404, 'Offers not found');
      await expectError(await suite.api.fetch('/api/offers/nope'), 400, 'Estimate id is not valid');
    });
  });
});
