/**
 * What the Follow Up Boss sync's test files share (fub-sync-integration-card, -new-leads and
 * -controls): the answers' schemas, and the suite with its helpers. Each file starts its own fake
 * (tests/fakes/fub.ts).
 */
import { afterEach } from 'vitest';
import * as z from 'zod';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { fubIntegrationSchema } from '../../src/features/crm/public/fub-integration.ts';
import { leadSyncSchema } from '../../src/features/crm/public/lead-sync.ts';
import { expectJson } from './api-suite.ts';
import { clientAs, useAuthSuite, type Client } from './auth-suite.ts';
import { createEstimate } from './estimates.ts';
import type { FakeFub } from '../fakes/fub.ts';
import type { Backend } from './backends.ts';
import { createAgent, type AgentRow } from './fixtures.ts';

/** The secret the stored API keys are encrypted with. */
export const SECRET = 'fub-sync-test-encryption-secret-0123456789';

export const integrationAnswer = z.object({ success: z.literal(true), integration: fubIntegrationSchema });
export const savedAnswer = integrationAnswer.extend({ message: z.string() });
export const leadAnswer = z.object({
  success: z.literal(true),
  lead: z.object({ id: z.number(), created_at: z.string() }),
  fub_sync_status: z.enum(['synced', 'no_api_key', 'no_integration', 'failed']),
});
export const syncAnswer = z.object({ success: z.literal(true), sync: z.nullable(leadSyncSchema) });

/** The crm context the app is built with: a client of the file's fake, and the encryption secret. */
export interface FubSyncCrm {
  client: ReturnType<typeof fubClient>;
  secret: string;
}

/**
 * The auth suite on `backend` with the app sending leads to `fake`, reset after each test, and the
 * helpers the files share: an agent and their session, connecting their key, a visitor's lead,
 * its sync state, and making queued jobs due.
 */
export function useFubSyncSuite(backend: Backend, fake: FakeFub, crm: FubSyncCrm) {
  const suite = useAuthSuite(backend, 'fubsync', { crm, crmWaitMs: 1_500 });
  afterEach(() => fake.reset());

  async function agentWithClient(): Promise<{ agent: AgentRow; client: Client }> {
    const agent = await createAgent(suite.db);
    return { agent, client: await clientAs(suite, agent.id) };
  }

  const connect = (client: Client, body: Record<string, unknown> = {}) =>
    client.request('/api/agents/me/integrations/fub', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: suite.api.origin },
      body: JSON.stringify({ api_key: fake.apiKey, active: true, ...body }),
    });

  /** A visitor's lead on the agent's calculator page, with the estimate they made there. */
  async function visitorLead(agent: AgentRow, overrides: Record<string, unknown> = {}) {
    const estimate = await createEstimate(suite.api, agent.slug);
    const response = await suite.client().post('/api/leads', {
      agent_id: agent.id,
      first_name: 'Dana',
      last_name: 'Lopez',
      email: `dana.${estimate.uuid.slice(0, 8)}@example.com`,
      phone: '(631) 555-0142',
      address: '12 Oak Lane, Garden City, NY 11530',
      consent_marketing: true,
      estimate_uuid: estimate.uuid,
      ...overrides,
    });
    return { estimate, answer: await expectJson(response, 201, leadAnswer) };
  }

  const syncOf = async (client: Client, leadId: number) =>
    (await expectJson(await client.get(`/api/leads/${leadId}/crm`), 200, syncAnswer)).sync;

  /** Makes the agent's queued jobs due now, as if their wait were over. */
  const makeDue = (agent: AgentRow) =>
    suite.db.query(`UPDATE crm_syncs SET next_attempt_at = now() WHERE status = 'queued' AND agent_id = $1`, [
      agent.id,
    ]);

  return { suite, agentWithClient, connect, visitorLead, syncOf, makeDue };
}
