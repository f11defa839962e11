/**
 * What the net sheet API tests (tests/integration/net-sheet-api-*.test.ts) share: a Nassau sale
 * worked out by hand from the stated rules (research: shared/research/long-island-seller-costs.md;
 * fees from li-fees.ts), the nets of it and of a quick estimate at any price, and the calls they
 * make against a suite's API.
 */
import { detailedEstimateAnswerSchema, sheetAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { expectJson, type ApiSuite } from './api-suite.ts';
import { createAgent } from './fixtures.ts';

/** A Nassau sale with two liens, a per-diem, concessions and a repair (costs in dollars, by hand). */
export const NASSAU = {
  sale_price: 800000,
  mortgage_payoff: 1,
  details: {
    listing_commission_percent: 2.5,
    buyer_agent_percent: 2.5,
    seller_concessions: '5,000',
    county: 'Nassau',
    closing_date: '2027-03-31',
    liens: [
      { label: 'First mortgage', payoff: 400000, per_diem_interest: 55.25, payoff_date: '2027-03-01' },
      { label: 'Home equity line', payoff: '50,000' },
    ],
    other_lines: [{ name: 'Roof repair', amount: 3500 }],
  },
};
/** Every line that does not move with the price: concessions, payoffs, 30 days × $55.25, attorney,
 * Nassau per lien (satisfaction $50.50, block $300, tax map $270) × 2, TP-584 $5, title closer
 * $250 × 2 (the agent's default), the repair. */
export const NASSAU_FIXED = 5000 + 400000 + 50000 + 1657.5 + 750 + 2 * (50.5 + 300 + 270) + 5 + 2 * 250 + 3500;
/** The net at a price: commissions 2.5 % + 2.5 %, transfer tax $2 per started $500. */
export const nassauNet = (price: number) => {
  const cents = Math.round(price * 100);
  const commission = 2 * Math.floor((cents * 250 * 2 + 10_000) / 20_000); // each side rounded half-up
  const tax = Math.ceil(cents / 50_000) * 200;
  return (cents - commission - tax - Math.round(NASSAU_FIXED * 100)) / 100;
};

/** The quick estimate at system defaults: 6 %, $2 per started $500, $750 + $175. */
export const quickNet = (price: number, payoff: number) => {
  const cents = Math.round(price * 100);
  const commission = Math.floor((cents * 600 * 2 + 10_000) / 20_000);
  return (cents - Math.round(payoff * 100) - commission - Math.ceil(cents / 50_000) * 200 - 750_00 - 175_00) / 100;
};

/** The calls of the tests on `suite`: a JSON post, a new agent's slug, a detailed estimate, a stored sheet. */
export function netSheetCalls(suite: ApiSuite) {
  const post = (path: string, body: unknown) => suite.api.postJson(path, body);
  const newAgent = async () => (await createAgent(suite.db)).slug;
  const detailed = async (body: unknown) =>
    expectJson(await post('/api/estimates', body), 201, detailedEstimateAnswerSchema);
  const sheetOf = async (uuid: string) =>
    expectJson(await suite.api.fetch(`/api/estimates/${uuid}/sheet`), 200, sheetAnswerSchema);
  return { post, newAgent, detailed, sheetOf };
}
