import { findEstimateAndAgent } from '../../features/email/public/lookups.server.ts';
import type { WebhookContext } from '../../features/webhooks/public/webhook-deliveries.server.ts';
import { agentData, estimateData } from '../../features/webhooks/public/webhook-events.server.ts';

/**
 * How an estimate.created's data is rendered from the stored estimate (its figures as the API answers
 * them, toEstimate) with the site's address for its links: the composition root's, as the webhooks
 * feature sits below the features that compute estimates.
 */
export const estimateRenderer =
  (siteUrl: string): NonNullable<WebhookContext['renderEstimate']> =>
  async (db, uuid) => {
    const found = await findEstimateAndAgent(db, uuid);
    if (!found) return undefined;
    return { estimate: estimateData(found.estimate, siteUrl), agent: agentData(found.agent, siteUrl) };
  };
