// The estimate requests bench-api and bench-load send.

/** A quick estimate of `agentSlug`'s (POST /api/estimates without details). */
export const quickEstimateBody = (agentSlug: string): string =>
  JSON.stringify({ agent_slug: agentSlug, sale_price: '780,200', mortgage_payoff: 450000, recipient_name: 'Bench' });

/** A Nassau sale with two liens, a per-diem and a paid first half of school tax: a detailed sheet's full work. */
export const NASSAU_DETAILS = {
  county: 'Nassau',
  closing_date: '2027-03-31',
  liens: [
    { label: 'Mortgage', payoff: 400000, per_diem_interest: 55.25, payoff_date: '2027-03-01' },
    { label: 'HELOC', payoff: 20000 },
  ],
  property_taxes: { nassau_school: { annual: 9000, first_half_paid: true } },
};
