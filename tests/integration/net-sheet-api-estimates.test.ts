/**
 * The detailed net sheet over real HTTP on both backends: a detailed estimate stored with its sheet
 * (POST /api/estimates with details: lines, the agent's defaults, taxes, notes, refusals), and a
 * stored estimate's sheet read back (GET /api/estimates/{uuid}/sheet).
 * Expected figures are worked out by hand from the stated rules (tests/support/net-sheet-api.ts),
 * not read back from the engine.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { reverseAnswerSchema, type SheetAnswer } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { NASSAU, nassauNet, netSheetCalls } from '../support/net-sheet-api.ts';
import { estimateResponse } from '../support/schemas.ts';
import { countRows, createAgent, setAgentSettings } from '../support/fixtures.ts';

const amountOf = (sheet: SheetAnswer, key: string) => sheet.lines.find((line) => line.key === key)?.amount;

describe.each(BACKENDS)('the detailed net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-api');
  const { post, newAgent, detailed, sheetOf } = netSheetCalls(suite);

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
});
