import type { CrmContext } from '../../features/crm/crm-sync.server.ts';
import { fubClient } from '../../features/crm/fub-client.server.ts';
import type { Env } from '../env.ts';
import { secretFrom } from '../secrets.ts';

/** Follow Up Boss as the environment configures it. */
export const crmFrom = (env: Env): CrmContext => ({
  client: fubClient(env.FUB_API_URL),
  // The stored Follow Up Boss keys are encrypted with ENCRYPTION_KEY, as the Mailgun key is.
  secret: () => secretFrom(env, 'ENCRYPTION_KEY'),
});
