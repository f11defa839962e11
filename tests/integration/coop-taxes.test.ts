/**
 * A co-op owner gets no property tax bill: the corporation pays the building's taxes and the
 * maintenance carries them (decision 0044). A co-op's Nassau, Suffolk or village tax, its Suffolk
 * lots and an RP-5217 on the seller were answered 201 and prorated or ignored; now each is refused
 * with what to do, and nothing is stored (issue 22, part F).
 */
import { describe, expect, it } from 'vitest';
import { countRows } from '../support/fixtures.ts';
import { expectFieldError, useApiSuite } from '../support/api-suite.ts';

describe('a co-op’s property taxes', () => {
  const suite = useApiSuite('pglite', 'coop-taxes');
  const post = (details: Record<string, unknown>) =>
    suite.api.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 450000,
      mortgage_payoff: 150000,
      details: { property_type: 'coop', closing_date: '2027-03-31', ...details },
    });

  it('refuses a co-op’s tax bill, lots and RP-5217 with what to do, and stores nothing', async () => {
    const before = await countRows(suite.db, 'estimates');
    const message =
      'A co-op owner gets no property tax bill: the co-op pays it from the maintenance. Leave property taxes empty for a co-op';
    await expectFieldError(
      await post({ county: 'Nassau', property_taxes: { nassau_school: { annual: 9000, first_half_paid: true } } }),
      'details.property_taxes.nassau_school.annual',
      message,
    );
    await expectFieldError(
      await post({ county: 'Suffolk', property_taxes: { suffolk: { annual: 8000 } } }),
      'details.property_taxes.suffolk.annual',
      message,
    );
    await expectFieldError(
      await post({ county: 'Suffolk', suffolk_lots: 3 }),
      'details.suffolk_lots',
      'A co-op records no satisfaction: no lots to verify',
    );
    await expectFieldError(
      await post({ county: 'Nassau', seller_pays_rp5217: true }),
      'details.seller_pays_rp5217',
      'A co-op has no deed and no RP-5217: leave it off for a co-op',
    );
    expect(await countRows(suite.db, 'estimates')).toBe(before);
  });

  it('still makes a co-op’s sheet without them', async () => {
    const response = await post({ county: 'Nassau' });
    expect(response.status).toBe(201);
  });
});
