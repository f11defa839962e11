/**
 * One estimate, one set of terms (issue 22, part A): offers on a quick estimate, the stored figures
 * of a detailed estimate and the range's centre, over real HTTP. The cases replay the net-sheet
 * audit (shared/audits/net-sheet-2026-11-26.md): O03 (its M4), D19's pattern (M8) and G03 (M7).
 * Expected figures are worked out here by hand from the stated rules, not read back from the engine.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { estimateSchema } from '../../src/features/net-sheet/public/estimate-request.ts';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
  rangeAnswerSchema,
  sheetAnswerSchema,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectJson, useApiSuite } from '../support/api-suite.ts';
import { estimateResponse } from '../support/schemas.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('one estimate, one set of terms on %s', (backend) => {
  const suite = useApiSuite(backend, 'one-estimate-one-terms');
  const post = (path: string, body: unknown) => suite.api.postJson(path, body);

  it('O03: offers on a quick estimate net what the estimate nets, and the better offer is best', async () => {
    // The demo agent: 6 % commission split 3 % listing + 3 % buyer's agent, $750 attorney, $175 recording.
    const { estimate } = await expectJson(
      await post('/api/estimates', { agent_slug: 'alexmorgan', sale_price: 650000, mortgage_payoff: 200000 }),
      201,
      estimateResponse,
    );
    // 650,000 − 200,000 − 6 % (39,000) − transfer tax 1,300 × $2 (2,600) − 750 − 175 (audit: $407,475).
    expect(estimate.net_to_seller).toBe(407475);
    const { comparison } = await expectJson(
      await post('/api/offers', {
        estimate_uuid: estimate.uuid,
        offers: [
          { price: 650000, concessions: 0, closing_date: '2027-08-16', financing: 'cash' },
          {
            price: 665000,
            concessions: 10000,
            buyer_agent_percent: 2,
            closing_date: '2027-09-30',
            financing: 'conventional',
          },
        ],
      }),
      201,
      comparisonAnswerSchema,
    );
    const [own, better] = comparison.offers;
    // The estimate's own terms: the estimate's net, no title-closer pick-up it never had.
    expect(own?.net_to_seller).toBe(407475);
    expect(own?.sheet.lines.map((line) => line.key)).not.toContain('title_closer_pickup');
    // 665,000 − 200,000 − (3 % + 2 % = 33,250) − 1,330 × $2 (2,660) − 750 − 175 − 10,000 (audit: $418,165).
    expect(better?.net_to_seller).toBe(418165);
    expect(better?.buyer_agent_percent).toBe(2);
    expect(comparison.offers.map((offer) => offer.best)).toEqual([false, true]);
    expect(own?.behind_best).toBe(10690);
    expect(own?.buyer_agent_percent).toBe(3);
  });

  it("M8: a detailed estimate's commission, percent and recording fee are its sheet's", async () => {
    const { estimate, sheet } = await expectJson(
      await post('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: 900000,
        mortgage_payoff: 0,
        details: {
          listing_commission_percent: 3,
          buyer_agent_percent: 2,
          county: 'Nassau',
          liens: [{ label: 'Mortgage', payoff: 400000 }],
        },
      }),
      201,
      detailedEstimateAnswerSchema,
    );
    // 3 % + 2 % of 900,000 = 45,000; Nassau per lien $50.50 + $300 + $270, TP-584 $5, title closer $250.
    expect(estimate.commission).toBe(45000);
    expect(estimate.commission_percent).toBe(5);
    expect(estimate.recording_fee).toBe(50.5 + 300 + 270 + 5 + 250);
    const read = await expectJson(
      await suite.api.fetch(`/api/estimates/${estimate.uuid}`),
      200,
      z.object({ estimate: estimateSchema }),
    );
    expect(read.estimate).toMatchObject({ commission: 45000, commission_percent: 5, recording_fee: 875.5 });
    // The figures add up to the sheet's net.
    const { sale_price, mortgage_payoff, commission, transfer_tax, lawyer_fee, recording_fee } = read.estimate;
    expect(sale_price - mortgage_payoff - commission - transfer_tax - lawyer_fee - recording_fee).toBeCloseTo(
      sheet.net_to_seller,
      2,
    );
  });

  it("the sheet of an agent's estimate is computed at the estimate's own transfer-tax rate", async () => {
    // An agent without a settings row: the LEFT JOINed settings' NULL rate once shadowed the estimate's.
    const agent = await createAgent(suite.db);
    const { estimate } = await expectJson(
      await post('/api/estimates', { agent_slug: agent.slug, sale_price: 500000, mortgage_payoff: 0 }),
      201,
      estimateResponse,
    );
    // System defaults: 500,000 − 6 % (30,000) − 1,000 × $2 (2,000) − 750 − 175.
    expect(estimate.net_to_seller).toBe(467075);
    const sheet = await expectJson(
      await suite.api.fetch(`/api/estimates/${estimate.uuid}/sheet`),
      200,
      sheetAnswerSchema,
    );
    expect(sheet.sheet.net_to_seller).toBe(467075);
    expect(sheet.sheet.lines.find((line) => line.key === 'transfer_tax')?.amount).toBe(2000);
  });

  it('M7 (G03): a price with cents is the middle point of its range; the others are on the grid', async () => {
    const { estimate } = await expectJson(
      await post('/api/estimates', { agent_slug: 'alexmorgan', sale_price: '999,999.99', mortgage_payoff: 0 }),
      201,
      estimateResponse,
    );
    const range = await expectJson(
      await suite.api.fetch(`/api/estimates/${estimate.uuid}/range?percent=1&points=3`),
      200,
      rangeAnswerSchema,
    );
    expect(range.points.map((point) => point.sale_price)).toEqual([990000, 999999.99, 1010000]);
    expect(range.points[1]?.net_to_seller).toBe(estimate.net_to_seller);
  });
});
