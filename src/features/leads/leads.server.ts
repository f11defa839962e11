import { randomInt } from 'node:crypto';
import type { Context } from 'hono';
import * as z from 'zod';
import { whenConnectionDrops, type Db } from '../../platform/db.ts';
import { HttpError, readJson } from '../../platform/http.ts';
import { apiGroup, created, json, ok } from '../../platform/operation.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits } from '../../platform/rate-limit.server.ts';
import { type MailContext } from '../email/public/email.server.ts';
import {
  agentPageLeadSchema,
  contactLeadSchema,
  estimatePageLeadSchema,
  leadAnswerSchema,
  type LeadAnswer,
} from './public/lead.ts';
import { LEAD_LIMITS } from '../lead-origin/public/lead-limits.server.ts';
import { clearOwnLeads, listOwnLeads } from './public/lead-list.server.ts';
import {
  clearLeadsResponseSchema,
  leadFilterSchema,
  leadListQuerySchema,
  leadListResponseSchema,
} from './public/lead-list.ts';
import { claimedJobSchema, sendJob, type CrmContext } from '../crm/public/crm-sync.server.ts';
import { fubEventFor } from '../crm/public/fub-event.ts';
import { parseLead, shapeOf, type NewLead } from './lead-intake.server.ts';
import { findTarget, insertLead, leadEmails, type LeadOutcome } from './lead-insert.server.ts';
import { prepareOptIn } from '../seller-updates/public/opt-in.server.ts';
import { markActive } from '../seller-updates/public/active.server.ts';
import type { UpdateLinkSigner } from '../seller-updates/public/update-links.server.ts';
import { leadEventData } from '../webhooks/public/webhook-events.server.ts';
import type { WebhookDispatch } from '../webhooks/public/webhook-deliveries.server.ts';

const notFound = (lead: NewLead) =>
  'estimateUuid' in lead.agent
    ? new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' })
    : new HttpError(404, 'Agent not found');

/** The spec's CRM sync results after a lead. */
export type FubSyncStatus = 'synced' | 'no_api_key' | 'no_integration' | 'failed';

/** The answer to a lead, the same shape for a new lead, a repeat and a dropped bot (leadAnswerSchema). */
const leadAnswer = (
  c: Context,
  id: number,
  createdAt: Date,
  fubSyncStatus: FubSyncStatus,
  estimateEmail: LeadAnswer['estimate_email'],
  updates: LeadAnswer['updates'],
) =>
  c.json(
    {
      success: true,
      lead: { id, created_at: createdAt.toISOString() },
      fub_sync_status: fubSyncStatus,
      estimate_email: estimateEmail,
      updates,
    } satisfies LeadAnswer,
    201,
  );

/** How long a visitor's request waits for the CRM (the sync goes on after the answer if it must). */
export const CRM_WAIT_MS = 3_000;

export interface LeadRoutesOptions {
  /** New-lead notices one agent address receives an hour at most (LEAD_NOTICES_PER_HOUR). */
  noticesPerHour?: number;
  /** Lead sync to Follow Up Boss. */
  crm: CrmContext;
  /** Keeps a sync going after the answer (AppDeps.runAfterResponse). */
  runAfterResponse: (task: Promise<unknown>) => void;
  /** How long the request waits for the sync; CRM_WAIT_MS by default. */
  crmWaitMs?: number;
}

/**
 * The new lead's sync: sent now, and waited for at most `waitMs`. A sync that takes longer goes on
 * after the answer (and is recorded when it ends); the visitor is told `failed` meanwhile, as the
 * spec has no other word for "not yet".
 */
async function syncNow(
  db: Db,
  options: LeadRoutesOptions,
  row: LeadOutcome,
  onError: (error: unknown) => void,
): Promise<FubSyncStatus> {
  if (row.crm_state) return row.crm_state;
  if (row.crm_job === null) return row.crm_status === 'synced' ? 'synced' : 'failed';
  const job = claimedJobSchema.parse(row.crm_job);
  const sending = sendJob(db, options.crm, job).then(
    (settled) => (settled.status === 'synced' ? 'synced' : 'failed'),
    (error: unknown) => {
      // The job stays claimed until its claim ends; the scheduled run sends it then.
      onError(error);
      return 'failed' as const;
    },
  );
  options.runAfterResponse(sending);
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'failed'>((resolve) => {
    timer = setTimeout(() => resolve('failed'), options.crmWaitMs ?? CRM_WAIT_MS);
  });
  try {
    return await Promise.race([sending, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** The public lead form, and the signed-in agent's list of leads and its Clear All. */
export const leadsApi = apiGroup(
  (deps: {
    db: Db;
    mail: MailContext;
    clientIp: (c: Context) => string;
    options: LeadRoutesOptions;
    logError: (error: unknown, request: Request) => void;
    /** Signs the monthly updates' confirmation links (a key derived from the session key). */
    updateSigner: UpdateLinkSigner;
    /** Sends the lead's webhooks after the answer. */
    webhooks: Pick<WebhookDispatch, 'deliverSoon'>;
  }) => ({ ...deps, noticesPerHour: deps.options.noticesPerHour ?? LEAD_LIMITS.noticesPerAgentAddress.limit }),
  // GET and DELETE first: a 405 here names them in that order (Allow: GET, DELETE, POST, HEAD).
  (op) => [
    op({
      method: 'GET',
      path: '/api/leads',
      access: 'agent',
      summary: "A page of the agent's leads, filtered",
      tag: 'Leads',
      query: leadListQuerySchema,
      success: ok('The page', leadListResponseSchema),
      handler: async (c, { db }, input) => listOwnLeads(c, db, input.query()),
    }),
    op({
      method: 'DELETE',
      path: '/api/leads',
      access: 'agent',
      summary: "Deletes the agent's leads that pass the list's filters (all of them without one: Clear All)",
      tag: 'Leads',
      query: leadFilterSchema,
      success: ok('Deleted', clearLeadsResponseSchema),
      handler: async (c, { db }, input) => clearOwnLeads(c, db, input.query()),
    }),
    op({
      method: 'POST',
      path: '/api/leads',
      access: 'public',
      summary:
        "A seller's request to be contacted: the contact form, the agent page's unlock or the estimate page's form",
      tag: 'Leads',
      body: json(contactLeadSchema, agentPageLeadSchema, estimatePageLeadSchema),
      success: created(
        "The lead was recorded (the same answer when it joins a recent one), with what became of the visitor's estimate e-mail",
        leadAnswerSchema,
      ),
      errors: [404, 429],
      /**
       * Round trips: the per-IP limits (none for a local client), the agent (and estimate), with the
       * box ticked the opt-in's reservation (prepareOptIn), then the lead with its counters, queued
       * e-mails, subscription and CRM sync job, then (with an integration) the sync's record. The e-mails are delivered after the response; a failing provider or CRM never loses
       * the lead or fails the request.
       */
      handler: async (c, { db, mail, clientIp, options, logError, noticesPerHour, updateSigner, webhooks }) => {
        const body = await readJson(c, z.record(z.string(), z.unknown()));
        const shape = shapeOf(body);
        const { lead, bot } = parseLead(shape, body);
        // A filled-in honeypot is a bot: it is told what a person is told, and nothing is written
        // (not even a rate-limit counter) or sent. The id is made up, as no lead exists.
        if (bot)
          return leadAnswer(
            c,
            randomInt(1, 2 ** 31 - 1),
            new Date(),
            'no_integration',
            { status: shape === 'agent' && lead.estimate_uuid ? 'queued' : 'none', retry_after_seconds: null },
            lead.updates_opt_in && lead.estimate_uuid ? 'confirmation_sent' : 'none',
          );
        const ip = clientIp(c);
        await enforceRateLimits(db, [
          ...perIpCheck(ip, LEAD_LIMITS.leadsPerIpShort, 'lead-10min'),
          ...perIpCheck(ip, LEAD_LIMITS.leadsPerIpHour, 'lead-hour'),
        ]);
        const store = async (): Promise<LeadOutcome> => {
          const target = await findTarget(db, lead);
          if (!target) throw notFound(lead);
          const siteUrl = mail.siteUrl(c.req.raw);
          const emails = leadEmails(shape, lead, target, siteUrl);
          // occurredAt is set to the lead's own time by the statement.
          const event = fubEventFor({
            lead: { ...lead, created_at: new Date().toISOString() },
            estimate: target.estimate,
            agentSlug: target.agent.slug,
            siteUrl,
          });
          // The ticked box: a subscription to the estimate's updates (none without an estimate to update).
          const optIn =
            lead.updates_opt_in && target.estimate
              ? await prepareOptIn(db, {
                  agent: target.agent,
                  lead,
                  estimate: target.estimate,
                  siteUrl,
                  signer: updateSigner,
                })
              : null;
          const netCents = target.estimate ? Math.round(target.estimate.net_to_seller * 100) : null;
          const webhookData = leadEventData({ lead, estimate: target.estimate, agent: target.agent, siteUrl });
          const row = await insertLead(
            db,
            lead,
            target.agent.id,
            emails,
            noticesPerHour,
            event,
            optIn,
            netCents,
            webhookData,
          );
          if (!row) throw notFound(lead);
          return row;
        };
        // A connection that drops under the statement may have dropped after the commit: the lead is
        // stored and only its answer was lost. Again on a fresh connection, the statement finds
        // such a lead through its claim and answers it as the same lead (no second row, notice, copy
        // or CRM job), so the visitor is thanked for a lead that is stored rather than refused.
        const row = await whenConnectionDrops(store);
        mail.deliverSoon(row.delivery_ids, c.req.raw);
        webhooks.deliverSoon(row.webhook_ids, c.req.raw);
        // A subscribed seller's re-run or higher net may make them active: the agent's alert is
        // evaluated after the answer (the scheduled sweep, markActiveSince, catches one lost here).
        if (row.signalled.length > 0) {
          const siteUrl = mail.siteUrl(c.req.raw);
          options.runAfterResponse(
            markActive(db, row.signalled, { siteUrl })
              .then((active) => {
                mail.deliverSoon(active.deliveryIds, c.req.raw);
                webhooks.deliverSoon(active.webhookIds, c.req.raw);
              })
              .catch((error: unknown) => logError(error, c.req.raw)),
          );
        }
        const status = await syncNow(db, options, row, (error) => logError(error, c.req.raw));
        return leadAnswer(
          c,
          row.id,
          row.created_at,
          status,
          { status: row.estimate_email, retry_after_seconds: row.estimate_email_retry_after },
          row.updates,
        );
      },
    }),
  ],
);
