/**
 * The reverse solve over real HTTP on both backends (POST /api/estimates/reverse): the lowest
 * whole-dollar price that nets a target, on the quick estimate and on the detailed sheet, its
 * bounds and its refusals.
 * Expected figures are worked out by hand from the stated rules (tests/support/net-sheet-api.ts),
 * not read back from the engine.
 */
import { describe, expect, it } from 'vitest';
import { reverseAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { NASSAU, nassauNet, netSheetCalls, quickNet } from '../support/net-sheet-api.ts';
import { estimateResponse } from '../support/schemas.ts';
import { countRows } from '../support/fixtures.ts';

describe.each(BACKENDS)('the detailed net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-api');
  const { post, newAgent, sheetOf } = netSheetCalls(suite);

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
});
