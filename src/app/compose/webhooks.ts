import type { WebhookContext } from '../../features/webhooks/public/webhook-deliveries.server.ts';
import { isProduction, siteUrl, type Env } from '../../platform/env.ts';
import { secretFrom } from '../../platform/secrets.ts';
import { estimateRenderer } from './webhook-estimates.ts';

/**
 * Outgoing webhooks as the environment configures them: the signing secrets are encrypted with
 * ENCRYPTION_KEY (as the CRM keys are), and loopback receivers pass the address guard only where
 * nobody else can reach them, never on Netlify.
 */
export const webhooksFrom = (env: Env): WebhookContext => ({
  secret: () => secretFrom(env, 'ENCRYPTION_KEY'),
  allowLoopback: !isProduction(env),
  renderEstimate: estimateRenderer(siteUrl(env)),
});
