/**
 * Estimates sent at the same moment share one INSERT (src/platform/batcher.ts); each visitor must
 * still get their own figures, and an unknown agent in the same batch must not disturb the others.
 * The calls go to the app in-process so they surely arrive in the same turn of the event loop.
 */
import { describe, expect, it } from 'vitest';
import { createApi } from '../../src/app/app.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { createAgent, setAgentSettings } from '../support/fixtures.ts';
import { estimateResponse } from '../support/schemas.ts';

/** A name by the one name rule (letters only): Seller A, Seller B, …, Seller AA. */
const sellerName = (index: number): string =>
  `Seller ${index >= 26 ? 'A' : ''}${String.fromCharCode(65 + (index % 26))}`;

describe.each(BACKENDS)('concurrent estimates on %s', (backend) => {
  const suite = useApiSuite(backend, 'concurrent');

  it('gives each of many simultaneous sellers their own estimate, in one round trip', async () => {
    const other = await createAgent(suite.db, { first_name: 'Dana' });
    await setAgentSettings(suite.db, other.id, {
      commissionPercent: 5,
      attorneyFeeCents: 1_000_00,
      recordingFeeCents: null,
      transferTaxRatePer1000: null,
    });
    const prices = Array.from({ length: 30 }, (_, index) => 400_000 + index * 1_000);
    const app = createApi({ db: suite.db });
    const post = (body: unknown) =>
      app.request('/api/estimates', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const before = suite.db.roundTrips;
    const responses = await Promise.all([
      ...prices.map((price, index) =>
        post({
          agent_slug: index % 2 === 0 ? 'alexmorgan' : other.slug,
          sale_price: price,
          mortgage_payoff: 100_000,
          recipient_name: sellerName(index),
        }),
      ),
      post({ agent_slug: 'nosuchagent', sale_price: 500_000 }),
    ]);
    const trips = suite.db.roundTrips - before;

    const unknown = responses.pop();
    if (!unknown) throw new Error('missing response');
    await expectError(unknown, 404, 'Agent not found');
    const estimates = await Promise.all(
      responses.map(async (response) => (await expectJson(response, 201, estimateResponse)).estimate),
    );
    estimates.forEach((estimate, index) => {
      const price = prices[index] ?? 0;
      const ownAgent = index % 2 === 0;
      const commission = Math.round(price * (ownAgent ? 0.06 : 0.05) * 100) / 100;
      const tax = Math.ceil(price / 500) * 2;
      const attorney = ownAgent ? 750 : 1000;
      expect(estimate).toMatchObject({
        agent_slug: ownAgent ? 'alexmorgan' : other.slug,
        recipient_name: sellerName(index),
        sale_price: price,
        commission,
        transfer_tax: tax,
        lawyer_fee: attorney,
        net_to_seller: Math.round((price - 100_000 - commission - tax - attorney - 175) * 100) / 100,
      });
    });
    expect(new Set(estimates.map((estimate) => estimate.uuid)).size).toBe(prices.length);
    expect(trips).toBe(1);

    // Every one of them was really stored and reads back the same.
    const stored = await expectJson(
      await suite.api.fetch(`/api/estimates/${estimates[7]?.uuid ?? ''}`),
      200,
      estimateResponse,
    );
    expect(stored.estimate).toEqual(estimates[7]);
  });
});
