import { expectJson } from './api-suite.ts';
import type { RunningApi } from './http.ts';
import { estimateResponse } from './schemas.ts';

/** Makes the worked-example estimate ($780,200 sale, $450,000 payoff) on `agentSlug`'s calculator through the API. */
export async function createEstimate(api: Pick<RunningApi, 'postJson'>, agentSlug = 'alexmorgan') {
  const response = await api.postJson('/api/estimates', {
    agent_slug: agentSlug,
    sale_price: '780,200',
    mortgage_payoff: 450000,
  });
  return (await expectJson(response, 201, estimateResponse)).estimate;
}
