/**
 * Withholding as lines (issue 22, part W; decision 0042) over real HTTP: a detailed estimate with a
 * foreign seller, a New York nonresident seller and a buyer exempt from the mansion tax answers and
 * stores the lines; the range and the reverse solve carry them across the $1,000,000 step; a cost
 * basis beside a principal residence is refused with the field to fix. Figures by hand from the
 * sources (research: docs/research/withholding-and-mansion-tax.md), not read back from the engine.
 */
import { describe, expect, it } from 'vitest';
import {
  detailedEstimateAnswerSchema,
  rangeAnswerSchema,
  reverseAnswerSchema,
  sheetAnswerSchema,
  type SheetAnswer,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';

const DETAILS = {
  foreign_seller: { buyer_residence: true },
  nonresident_seller: { cost_basis: '600,000' },
  buyer_exempt_from_mansion_tax: true,
};

const amountOf = (sheet: SheetAnswer, key: string) => sheet.lines.find((line) => line.key === key)?.amount;

describe.each(BACKENDS)('withholding lines on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-withholding');
  const post = (path: string, body: unknown) => suite.api.postJson(path, body);

  it('answers and stores FIRPTA, IT-2663 and the seller’s mansion tax at $1,000,000', async () => {
    const agent_slug = (await createAgent(suite.db)).slug;
    const body = await expectJson(
      await post('/api/estimates', { agent_slug, sale_price: 1_000_000, mortgage_payoff: 0, details: DETAILS }),
      201,
      detailedEstimateAnswerSchema,
    );
    // By hand, system defaults (6 % commission, $2 per started $500, attorney $750, recording $175):
    // the mansion tax 1 % = $10,000 on the seller (Tax Law §1402-a(b)); FIRPTA on the buyer's residence
    // at not more than $1,000,000: 10 % = $100,000; IT-2663: selling expenses $60,000 + $4,000 + $10,000 +
    // $750 + $175 = $74,925, gain $1,000,000 − $74,925 − $600,000 = $325,075, × 10.9 % = $35,433.175 → $35,433.18.
    expect(body.sheet.lines.map((line) => [line.key, line.group, line.amount])).toEqual([
      ['sale_price', 'sale', -1_000_000],
      ['commission', 'commission', 60_000],
      ['transfer_tax', 'tax', 4_000],
      ['mansion_tax', 'tax', 10_000],
      ['attorney_fee', 'fee', 750],
      ['recording_fee', 'fee', 175],
      ['firpta_withholding', 'withholding', 100_000],
      ['nys_estimated_tax', 'withholding', 35_433.18],
    ]);
    expect(body.sheet.net_to_seller).toBe(789_641.82);
    expect(body.estimate.net_to_seller).toBe(789_641.82);
    // The line replaces the note that the buyer pays the mansion tax.
    expect(body.sheet.notes.map((note) => note.key)).not.toContain('mansion_tax');
    const stored = await expectJson(
      await suite.api.fetch(`/api/estimates/${body.estimate.uuid}/sheet`),
      200,
      sheetAnswerSchema,
    );
    expect(stored.sheet).toEqual(body.sheet);
    expect(stored.details).toMatchObject(DETAILS);

    // The range steps with the lines: $995,000 nets more than $1,000,000 (no mansion tax), $1,005,000
    // far less (FIRPTA 15 % above $1,000,000).
    const range = await expectJson(
      await suite.api.fetch(`/api/estimates/${body.estimate.uuid}/range`),
      200,
      rangeAnswerSchema,
    );
    // $995,000: commission $59,700, tax $3,980, FIRPTA $99,500, IT-2663 on $330,395 → $36,013.06 (half-up).
    // $1,005,000: commission $60,300, tax $4,020, mansion $10,050, FIRPTA $150,750, IT-2663 on
    // $329,705 → $35,937.85.
    expect(range.points.slice(19, 22)).toEqual([
      { sale_price: 995_000, net_to_seller: 794_881.94 },
      { sale_price: 1_000_000, net_to_seller: 789_641.82 },
      { sale_price: 1_005_000, net_to_seller: 743_017.15 },
    ]);
  });

  it('solves the lowest price across the $1,000,000 step', async () => {
    const agent_slug = (await createAgent(suite.db)).slug;
    const reverse = async (target_net: number) =>
      expectJson(
        await post('/api/estimates/reverse', { agent_slug, target_net, mortgage_payoff: 0, details: DETAILS }),
        201,
        reverseAnswerSchema,
      );
    // What $995,000 nets: every lower price nets less, so $995,000. A cent more: each dollar nets about
    // $0.74 more (1 − 6 % − 10 % − 10.9 % × 94 %), but $995,001 starts a $500 step (+$2 transfer tax):
    // −$1.26, −$0.52, +$0.21 at $995,003.
    expect((await reverse(794_881.94)).sale_price).toBe(995_000);
    expect((await reverse(794_881.95)).sale_price).toBe(995_003);
    // What $1,000,000 nets is reached below it: the seller's mansion tax makes $1,000,000 net less.
    expect((await reverse(789_641.82)).sale_price).toBeLessThan(1_000_000);
    // More than any price below $1,000,000 nets ($999,999 nets about $798,500): far above it.
    const high = await reverse(800_000);
    expect(high.sale_price).toBeGreaterThan(1_050_000);
    expect(high.sheet.net_to_seller).toBeGreaterThanOrEqual(800_000);
    expect(amountOf(high.sheet, 'firpta_withholding')).toBe(Math.round(high.sale_price * 15) / 100);
    const below = await expectJson(
      await post('/api/estimates', {
        agent_slug,
        sale_price: high.sale_price - 1,
        mortgage_payoff: 0,
        details: DETAILS,
      }),
      201,
      detailedEstimateAnswerSchema,
    );
    expect(below.sheet.net_to_seller).toBeLessThan(800_000);
  });

  it('refuses a cost basis beside a principal residence, and stores nothing', async () => {
    const agent_slug = (await createAgent(suite.db)).slug;
    const before = await countRows(suite.db, 'estimates');
    await expectFieldError(
      await post('/api/estimates', {
        agent_slug,
        sale_price: 700_000,
        mortgage_payoff: 0,
        details: { nonresident_seller: { principal_residence: true, cost_basis: 350_000 } },
      }),
      'details.nonresident_seller.cost_basis',
      'A principal residence owes no New York estimated tax: leave the cost basis empty, or untick principal residence',
    );
    expect(await countRows(suite.db, 'estimates')).toBe(before);
  });
});
