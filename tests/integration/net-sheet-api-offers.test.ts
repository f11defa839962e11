/**
 * Offers side by side over real HTTP on both backends (POST /api/offers, GET /api/offers/{uuid}):
 * each offer weighed on the estimate's sheet, the best marked, shared as one link, and the
 * refusals.
 * Expected figures are worked out by hand from the stated rules (tests/support/net-sheet-api.ts),
 * not read back from the engine.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { comparisonAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { NASSAU, nassauNet, netSheetCalls } from '../support/net-sheet-api.ts';
import { countRows } from '../support/fixtures.ts';

describe.each(BACKENDS)('the detailed net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-api');
  const { post, newAgent, detailed } = netSheetCalls(suite);

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
