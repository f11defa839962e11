import type { Estimate } from './public/estimate-request.ts';

/** The worked example as the API answers it (sale 780,200, payoff 450,000), for tests. */
export const WORKED_EXAMPLE: Estimate = {
  uuid: '8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42',
  agent_id: 1,
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
  created_at: '2026-01-01T00:00:00.000Z',
};
