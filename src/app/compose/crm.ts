import type { CrmContext } from '../../features/crm/public/crm-sync.server.ts';
import { fubClient } from '../../features/crm/fub-client.server.ts';
import { previewFubClient } from '../../features/crm/preview-fub-client.server.ts';
import { isPreview, type Env } from '../../platform/env.ts';
import { secretFrom } from '../../platform/secrets.ts';

/**
 * Follow Up Boss as the environment configures it. A deploy preview or branch deploy (decision
 * 0030) records its syncs as not sent, whatever keys its database holds.
 */
export const crmFrom = (env: Env): CrmContext => ({
  client: isPreview(env) ? previewFubClient() : fubClient(env.FUB_API_URL),
  // The stored Follow Up Boss keys are encrypted with ENCRYPTION_KEY, as the Mailgun key is.
  secret: () => secretFrom(env, 'ENCRYPTION_KEY'),
});
