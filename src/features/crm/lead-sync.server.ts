/**
 * The dashboard's sync controls and a lead's sync history:
 * - POST /api/leads/sync-fub `{ lead_ids }`: the caller's leads sent to Follow Up Boss now (a lead
 *   already synced is never sent again);
 * - GET /api/leads/:id/crm: the lead's sync job and every attempt.
 */
import * as z from 'zod';
import { sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import { PLEASE_LOG_IN } from '../auth/public/sessions.server.ts';
import { toEstimate } from '../net-sheet/public/estimate-row.server.ts';
import { recordIdParam } from '../forms/public/record-id.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import {
  CLAIM_SECONDS,
  claimedJobSchema,
  sendInTurn,
  unsureCallSql,
  type CrmContext,
} from './public/crm-sync.server.ts';
import { fubEventFor } from './public/fub-event.ts';
import {
  leadSyncAnswerSchema,
  leadSyncRequestSchema,
  leadSyncSchema,
  type LeadSyncResult,
} from './public/lead-sync.ts';

const leadRowSchema = z.object({
  me_id: z.number(),
  slug: z.string(),
  connected: z.boolean(),
  id: z.number().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  message: z.string().nullable(),
  source: z.string().nullable(),
  page_path: z.string().nullable(),
  created_at: z.date().nullable(),
  sync_status: z.string().nullable(),
  uuid: z.string().nullable(),
  sale_price_cents: z.number().nullable(),
  mortgage_payoff_cents: z.number().nullable(),
  commission_percent: z.number().nullable(),
  transfer_tax_rate_per_1000: z.number().nullable(),
  attorney_fee_cents: z.number().nullable(),
  recording_fee_cents: z.number().nullable(),
  recipient_name: z.string().nullable(),
  estimate_created_at: z.date().nullable(),
  /** A detailed estimate's stored sheet (its figures are the sheet's). */
  sheet: z.unknown(),
});
type LeadRow = z.infer<typeof leadRowSchema>;

const signedOut = () => new HttpError(401, PLEASE_LOG_IN);
/** The lead of /api/leads/{id}/crm (also in the OpenAPI document). */
export const leadCrmParams = z.object({ id: recordIdParam('Lead id') });

const leadNotFound = () => new HttpError(404, 'Lead not found');

/** The event of a lead read by the sync query. */
function eventOf(row: LeadRow & { id: number; created_at: Date }, siteUrl: string) {
  const estimate =
    row.uuid !== null &&
    row.sale_price_cents !== null &&
    row.mortgage_payoff_cents !== null &&
    row.commission_percent !== null &&
    row.transfer_tax_rate_per_1000 !== null &&
    row.attorney_fee_cents !== null &&
    row.recording_fee_cents !== null &&
    row.estimate_created_at !== null
      ? toEstimate({
          uuid: row.uuid,
          agent_id: row.me_id,
          agent_slug: row.slug,
          sale_price_cents: row.sale_price_cents,
          mortgage_payoff_cents: row.mortgage_payoff_cents,
          commission_percent: row.commission_percent,
          transfer_tax_rate_per_1000: row.transfer_tax_rate_per_1000,
          attorney_fee_cents: row.attorney_fee_cents,
          recording_fee_cents: row.recording_fee_cents,
          recipient_name: row.recipient_name,
          created_at: row.estimate_created_at,
          sheet: row.sheet,
        })
      : null;
  return fubEventFor({
    lead: {
      first_name: row.first_name ?? '',
      last_name: row.last_name ?? '',
      email: row.email ?? '',
      phone: row.phone,
      address: row.address,
      message: row.message,
      source: row.source ?? 'calculator',
      page_path: row.page_path,
      created_at: row.created_at.toISOString(),
    },
    estimate,
    agentSlug: row.slug,
    siteUrl,
  });
}

/** The dashboard's sync controls and a lead's sync history. */
export const leadSyncApi = apiGroup(
  (deps: { db: Db; crm: CrmContext; siteUrl: (request: Request) => string }) => deps,
  (op) => [
    op({
      method: 'POST',
      path: '/api/leads/sync-fub',
      access: 'agent',
      summary: 'Sends the chosen leads to Follow Up Boss now',
      tag: 'Follow Up Boss',
      json: leadSyncRequestSchema,
      success: ok('What each lead did', leadSyncAnswerSchema),
      errors: [409],
      /**
       * Round trips: the leads with their estimates and sync state (with the session check), the
       * jobs written and claimed, then one per lead sent. Leads of one agent share a key, so they are
       * sent one after another; when FUB rate-limits it, the rest stay queued for the scheduled run.
       */
      handler: async (c, { db, crm, siteUrl }, input) => {
        const claims = sessionOf(c);
        const { lead_ids: ids } = await input.body();
        const rows = z.array(leadRowSchema).parse(
          await db.query<unknown>(
            `WITH ${sessionAgentCte(1)}
             SELECT me.id AS me_id, a.slug, coalesce(i.active AND i.api_key_encrypted IS NOT NULL, false) AS connected,
                    l.id, l.first_name, l.last_name, l.email, l.phone, l.address, l.message, l.source, l.page_path,
                    l.created_at, s.status AS sync_status, e.uuid, e.sale_price_cents, e.mortgage_payoff_cents,
                    e.commission_percent, e.transfer_tax_rate_per_1000, e.attorney_fee_cents, e.recording_fee_cents,
                    e.recipient_name, e.created_at AS estimate_created_at, e.sheet
               FROM me JOIN agents a ON a.id = me.id
               LEFT JOIN fub_integrations i ON i.agent_id = me.id
               LEFT JOIN leads l ON l.agent_id = me.id AND l.id = ANY($3::int[])
               LEFT JOIN crm_syncs s ON s.lead_id = l.id
               LEFT JOIN estimates e ON e.uuid = l.estimate_uuid
              ORDER BY l.id`,
            [...sessionParams(claims), ids],
          ),
        );
        const [first] = rows;
        if (!first) throw signedOut();
        if (!first.connected) throw new HttpError(409, 'Connect Follow Up Boss and turn it on first');
        const leads = rows.filter(
          (row): row is LeadRow & { id: number; created_at: Date } => row.id !== null && row.created_at !== null,
        );
        // Another agent's lead answers as one that does not exist.
        if (leads.length !== new Set(ids).size) throw leadNotFound();
        const origin = siteUrl(c.req.raw);
        const toSend = leads.filter((row) => row.sync_status !== 'synced' && row.sync_status !== 'sending');
        const claimed = z.array(claimedJobSchema).parse(
          toSend.length === 0
            ? []
            : await db.query<unknown>(
                `WITH ${sessionAgentCte(1)},
                 written AS (
                   INSERT INTO crm_syncs AS s (lead_id, agent_id, payload, status, claimed_until)
                   SELECT w.lead_id, me.id, w.payload, 'sending', now() + $5 * interval '1 second'
                     FROM me CROSS JOIN unnest($3::int[], $4::jsonb[]) AS w (lead_id, payload)
                   ON CONFLICT (lead_id) DO UPDATE SET status = 'sending', claimed_until = EXCLUDED.claimed_until
                     WHERE s.status NOT IN ('synced', 'sending')
                   RETURNING s.id, s.lead_id, s.agent_id, s.attempts, s.payload
                 )
                 SELECT w.id::int AS id, w.lead_id, w.agent_id, w.attempts, w.payload,
                        i.api_key_encrypted, i.system, i.system_key_encrypted, ${unsureCallSql('w.id')} AS unsure
                   FROM written w JOIN fub_integrations i ON i.agent_id = w.agent_id
                  WHERE i.active AND i.api_key_encrypted IS NOT NULL`,
                [
                  ...sessionParams(claims),
                  toSend.map((row) => row.id),
                  toSend.map((row) => JSON.stringify(eventOf(row, origin))),
                  CLAIM_SECONDS,
                ],
              ),
        );
        const results = new Map<number, LeadSyncResult>(
          leads.map((row) => [
            row.id,
            { lead_id: row.id, status: row.sync_status === 'synced' ? 'synced' : 'waiting', error: null },
          ]),
        );
        for (const [leadId, settled] of await sendInTurn(db, crm, claimed)) {
          const status = settled.status === 'queued' ? 'waiting' : settled.status;
          results.set(leadId, { lead_id: leadId, status, error: settled.error });
        }
        const list = [...results.values()];
        return c.json({
          success: true,
          synced: list.filter((result) => result.status === 'synced').length,
          results: list,
        });
      },
    }),
    op({
      method: 'GET',
      path: '/api/leads/:id/crm',
      access: 'agent',
      summary: "A lead's Follow Up Boss sync history",
      tag: 'Follow Up Boss',
      params: leadCrmParams,
      success: ok('The sync'),
      errors: [404],
      /** One round trip: the caller's lead, its job and every attempt, newest first. */
      handler: async (c, { db }, input) => {
        const { id } = input.params();
        const [row] = await db.query<{ me_id: number; lead_id: number | null; sync: unknown }>(
          `WITH ${sessionAgentCte(1)}
           SELECT me.id AS me_id, l.id AS lead_id,
                  (SELECT json_build_object(
                     'status', s.status, 'attempts', s.attempts, 'next_attempt_at', s.next_attempt_at,
                     'person_id', s.person_id, 'last_error', s.last_error,
                     'history', coalesce((SELECT json_agg(json_build_object('at', t.at, 'outcome', t.outcome,
                                            'http_status', t.http_status, 'error', t.error, 'duration_ms', t.duration_ms)
                                            ORDER BY t.at DESC, t.id DESC)
                                          FROM crm_sync_attempts t WHERE t.sync_id = s.id), '[]'::json))
                     FROM crm_syncs s WHERE s.lead_id = l.id) AS sync
             FROM me LEFT JOIN leads l ON l.id = $3 AND l.agent_id = me.id`,
          [...sessionParams(sessionOf(c)), id],
        );
        if (!row) throw signedOut();
        if (row.lead_id === null) throw leadNotFound();
        return c.json({ success: true, sync: row.sync === null ? null : leadSyncSchema.parse(row.sync) });
      },
    }),
  ],
);
