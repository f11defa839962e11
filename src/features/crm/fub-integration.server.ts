/**
 * GET, PATCH and DELETE /api/agents/me/integrations/fub: the signed-in agent's Follow Up Boss
 * connection. A new API key is checked with GET /v1/identity before anything is stored; a refused
 * key is not stored and the answer says why. Keys are encrypted at rest and never answered.
 */
import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import type { Db } from '../../platform/db.ts';
import { decrypt, encrypt, maskedKey, resolveSecret } from '../../platform/encryption.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { FUB_API_KEY_CONTEXT, FUB_SYSTEM_KEY_CONTEXT, type CrmContext } from './public/crm-sync.server.ts';
import type { FubIdentity } from './fub-client.server.ts';
import {
  FUB_MESSAGES,
  fubAnswerSchema,
  fubChangeSchema,
  fubSaveSchema,
  type FubIntegration,
} from './public/fub-integration.ts';

const integrationRowSchema = z.object({
  me_id: z.number(),
  api_key_encrypted: z.string().nullable(),
  api_key_masked: z.string().nullable(),
  system: z.string().nullable(),
  system_key_encrypted: z.string().nullable(),
  system_key_masked: z.string().nullable(),
  active: z.boolean().nullable(),
  account_name: z.string().nullable(),
  account_domain: z.string().nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  attention: z.string().nullable(),
  synced: z.number(),
  waiting: z.number(),
  stopped: z.number(),
  ignored: z.number(),
  rejected: z.number(),
});
type IntegrationRow = z.infer<typeof integrationRowSchema>;

/** The integration's columns as read from `alias` (a row of fub_integrations, or none). */
const integrationColumns = (alias: string) =>
  ['api_key_encrypted', 'api_key_masked', 'system', 'system_key_encrypted', 'system_key_masked', 'active']
    .concat(['account_name', 'account_domain', 'user_name', 'user_email', 'attention'])
    .map((column) => `${alias}.${column}`)
    .join(', ');

/** The agent's leads by sync state, as a CTE `jobs` of one row: one index range of crm_syncs. */
const JOBS_CTE = `jobs AS (
  SELECT count(*) FILTER (WHERE s.status = 'synced')::int AS synced,
         count(*) FILTER (WHERE s.status IN ('queued', 'sending'))::int AS waiting,
         count(*) FILTER (WHERE s.status = 'stopped')::int AS stopped,
         count(*) FILTER (WHERE s.status = 'ignored')::int AS ignored,
         count(*) FILTER (WHERE s.status = 'rejected')::int AS rejected
    FROM crm_syncs s JOIN me ON s.agent_id = me.id
   WHERE s.kind = 'lead'
)`;
const JOB_COLUMNS = 'jobs.synced, jobs.waiting, jobs.stopped, jobs.ignored, jobs.rejected';

function toView(row: IntegrationRow): FubIntegration {
  const hasAccount = row.account_name !== null || row.user_email !== null;
  return {
    connected: row.api_key_encrypted !== null,
    api_key_masked: row.api_key_masked ?? '',
    system: row.system,
    system_key_masked: row.system_key_masked ?? '',
    active: row.active ?? false,
    account: hasAccount
      ? { name: row.account_name, domain: row.account_domain, user_name: row.user_name, user_email: row.user_email }
      : null,
    attention: row.attention,
    leads: {
      synced: row.synced,
      waiting: row.waiting,
      stopped: row.stopped,
      ignored: row.ignored,
      rejected: row.rejected,
    },
  };
}

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);

/** The row of the signed-in agent, read with the session check. One round trip. */
async function readIntegration(db: Db, claims: Parameters<typeof sessionParams>[0]): Promise<IntegrationRow> {
  const [row] = await db.query<unknown>(
    `WITH ${sessionAgentCte(1)}, ${JOBS_CTE}
     SELECT me.id AS me_id, ${integrationColumns('i')}, ${JOB_COLUMNS}
       FROM me CROSS JOIN jobs LEFT JOIN fub_integrations i ON i.agent_id = me.id`,
    sessionParams(claims),
  );
  if (!row) throw signedOut();
  return integrationRowSchema.parse(row);
}

/** The signed-in agent's Follow Up Boss connection. */
export const fubIntegrationApi = apiGroup(
  (deps: { db: Db; crm: CrmContext }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/agents/me/integrations/fub',
      access: 'agent',
      summary: "The agent's Follow Up Boss connection (the key masked)",
      tag: 'Follow Up Boss',
      success: ok('The connection', fubAnswerSchema),
      handler: async (c, { db }) =>
        c.json({ success: true, integration: toView(await readIntegration(db, sessionOf(c))) }),
    }),
    op({
      method: 'PATCH',
      path: '/api/agents/me/integrations/fub',
      access: 'agent',
      summary: 'Connects or changes Follow Up Boss (the key is checked with Follow Up Boss)',
      tag: 'Follow Up Boss',
      json: fubSaveSchema,
      success: ok('Saved', fubChangeSchema),
      errors: [502],
      /**
       * Round trips: the current row (for the stored system key), then the save. A new key is first
       * checked with Follow Up Boss; saving a working key clears the attention flag and sends the
       * leads that waited for it (stopped jobs are queued again).
       */
      handler: async (c, { db, crm }, input) => {
        const claims = sessionOf(c);
        const save = await input.body();
        const current = await readIntegration(db, claims);
        const secret = resolveSecret(crm.secret);
        let identity: FubIdentity | null = null;
        if (save.api_key) {
          const storedSystemKey =
            current.system_key_encrypted === null
              ? null
              : decrypt(current.system_key_encrypted, secret, FUB_SYSTEM_KEY_CONTEXT);
          const checked = await crm.client.identity({
            apiKey: save.api_key,
            system: save.system ?? current.system,
            systemKey: save.system_key ?? storedSystemKey,
          });
          if (!checked.ok) {
            const { answer } = checked;
            if (answer.kind === 'refused' || answer.kind === 'rejected') {
              // Follow Up Boss's own text (never the key: the client strips it) is for the log, not the
              // agent; a refusal of ours (status null: a preview deploy calls no one) keeps its words.
              const fromProvider = answer.status !== null;
              if (fromProvider) console.warn(`[fub] agent ${claims.agentId}: API key check failed: ${answer.message}`);
              const message = !fromProvider
                ? answer.message
                : answer.kind === 'refused'
                  ? FUB_MESSAGES.keyRefused
                  : FUB_MESSAGES.keyRejected;
              throw new HttpError(400, message, { api_key: message });
            }
            throw new HttpError(502, FUB_MESSAGES.unreachable);
          }
          identity = checked.identity;
        }
        const [row] = await db.query<unknown>(
          `WITH ${sessionAgentCte(1)}, ${JOBS_CTE},
           saved AS (
             INSERT INTO fub_integrations AS i (agent_id, api_key_encrypted, api_key_masked, system, system_key_encrypted,
                                                system_key_masked, active, account_name, account_domain, user_name,
                                                user_email, attention, updated_at)
             SELECT me.id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, now() FROM me
             ON CONFLICT (agent_id) DO UPDATE SET
               api_key_encrypted = coalesce(EXCLUDED.api_key_encrypted, i.api_key_encrypted),
               api_key_masked = coalesce(EXCLUDED.api_key_masked, i.api_key_masked),
               system = coalesce(EXCLUDED.system, i.system),
               system_key_encrypted = coalesce(EXCLUDED.system_key_encrypted, i.system_key_encrypted),
               system_key_masked = coalesce(EXCLUDED.system_key_masked, i.system_key_masked),
               active = EXCLUDED.active,
               account_name = CASE WHEN $13 THEN EXCLUDED.account_name ELSE i.account_name END,
               account_domain = CASE WHEN $13 THEN EXCLUDED.account_domain ELSE i.account_domain END,
               user_name = CASE WHEN $13 THEN EXCLUDED.user_name ELSE i.user_name END,
               user_email = CASE WHEN $13 THEN EXCLUDED.user_email ELSE i.user_email END,
               attention = CASE WHEN $13 THEN NULL ELSE i.attention END,
               updated_at = now()
             RETURNING ${integrationColumns('i')}, i.agent_id
           ),
           resumed AS (
             UPDATE crm_syncs s SET status = 'queued', next_attempt_at = now(), last_error = NULL
               FROM saved WHERE $13 AND saved.active AND s.agent_id = saved.agent_id AND s.status = 'stopped'
             RETURNING s.id
           )
           -- jobs was read before this statement's changes: the resumed ones are counted as waiting here.
           SELECT me.id AS me_id, ${integrationColumns('saved')}, jobs.synced, jobs.ignored, jobs.rejected,
                  jobs.waiting + (SELECT count(*)::int FROM resumed) AS waiting,
                  jobs.stopped - (SELECT count(*)::int FROM resumed) AS stopped
             FROM me CROSS JOIN jobs CROSS JOIN saved`,
          [
            ...sessionParams(claims),
            save.api_key ? encrypt(save.api_key, secret, FUB_API_KEY_CONTEXT) : null,
            save.api_key ? maskedKey(save.api_key) : null,
            save.system ?? null,
            save.system_key ? encrypt(save.system_key, secret, FUB_SYSTEM_KEY_CONTEXT) : null,
            save.system_key ? maskedKey(save.system_key) : null,
            save.active,
            identity?.accountName ?? null,
            identity?.domain ?? null,
            identity?.userName ?? null,
            identity?.userEmail ?? null,
            identity !== null,
          ],
        );
        if (!row) throw signedOut();
        return c.json({
          success: true,
          message: FUB_MESSAGES.saved,
          integration: toView(integrationRowSchema.parse(row)),
        });
      },
    }),
    op({
      method: 'DELETE',
      path: '/api/agents/me/integrations/fub',
      access: 'agent',
      summary: 'Disconnects Follow Up Boss',
      tag: 'Follow Up Boss',
      success: ok('Disconnected', fubChangeSchema),
      /**
       * Disconnect: the keys go; the leads still waiting stop (saving a key later sends them). One
       * statement.
       */
      handler: async (c, { db }) => {
        const [row] = await db.query<unknown>(
          `WITH ${sessionAgentCte(1)}, ${JOBS_CTE},
           gone AS (DELETE FROM fub_integrations i USING me WHERE i.agent_id = me.id RETURNING i.agent_id),
           held AS (
             UPDATE crm_syncs s SET status = 'stopped', claimed_until = NULL,
                    last_error = 'Follow Up Boss was disconnected'
               FROM me WHERE s.agent_id = me.id AND s.status IN ('queued', 'sending')
             RETURNING s.id
           )
           -- jobs was read before this statement's changes: the held ones are counted as stopped here.
           SELECT me.id AS me_id, ${integrationColumns('none')}, jobs.synced, jobs.ignored, jobs.rejected,
                  jobs.waiting - (SELECT count(*)::int FROM held) AS waiting,
                  jobs.stopped + (SELECT count(*)::int FROM held) AS stopped
             FROM me CROSS JOIN jobs LEFT JOIN fub_integrations none ON false`,
          sessionParams(sessionOf(c)),
        );
        if (!row) throw signedOut();
        return c.json({
          success: true,
          message: FUB_MESSAGES.disconnected,
          integration: toView(integrationRowSchema.parse(row)),
        });
      },
    }),
  ],
);
