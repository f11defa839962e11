/**
 * The price range over real HTTP on both backends (GET /api/estimates/{uuid}/range): the nets of
 * prices around a stored estimate's, its width and number of points, and its refusals.
 * Expected figures are worked out by hand from the stated rules (tests/support/net-sheet-api.ts),
 * not read back from the engine.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rangeAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { NASSAU, nassauNet, netSheetCalls, quickNet } from '../support/net-sheet-api.ts';
import { estimateResponse } from '../support/schemas.ts';

describe.each(BACKENDS)('the detailed net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-api');
  const { post, newAgent, detailed } = netSheetCalls(suite);

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
});
