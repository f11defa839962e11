/** POST /api/email/send-estimate and POST /api/templates. */
import type { Context } from 'hono';
import type { Db } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { accepted, apiGroup, ok } from '../../platform/operation.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { enforceRateLimits, rateCheck } from '../../platform/rate-limit.server.ts';
import {
  estimateEmailCheck,
  LEAD_LIMITS,
  SEND_ESTIMATE_LEAD_MINUTES,
} from '../lead-origin/public/lead-limits.server.ts';
import { queueEmail, type MailContext } from './public/email.server.ts';
import { followUpTemplates, templatesRequestSchema } from './follow-up-templates.ts';
import { findEstimateAndAgent } from './public/lookups.server.ts';
import {
  SEND_ESTIMATE_NO_LEAD,
  SEND_ESTIMATE_SUCCESS,
  sendEstimateRequestSchema,
  sendEstimateResponseSchema,
} from './send-estimate.ts';
import { estimateEmail } from './public/templates.ts';

/** What the e-mail routes are built from (src/app/api-groups.server.ts). */
export interface EmailRoutesDeps {
  db: Db;
  mail: MailContext;
  clientIp: (c: Context) => string;
}

export const emailApi = apiGroup(
  (deps: EmailRoutesDeps) => deps,
  (op) => [
    /**
     * The estimate page's "Send this to my email", after its lead (POST /api/leads). Not a relay: it
     * mails only a visitor whose lead recorded this estimate in the last SEND_ESTIMATE_LEAD_MINUTES
     * (403 otherwise), at most sendEstimatePerEstimate times per estimate and
     * estimateEmailsPerRecipient times per address (shared with agent-page leads), and per IP (429).
     * Three round trips: the estimate with its agent and the lead check, the counters, then the
     * delivery row (one statement). A refused request counts nothing, so nobody can use up a
     * visitor's allowance without their lead. Answers 202 once the message is queued; it is sent
     * after the response. If it cannot be queued the visitor is told so (500), since sending is the
     * point.
     */
    op({
      method: 'POST',
      path: '/api/email/send-estimate',
      access: 'public',
      summary: 'E-mails an estimate to the visitor whose lead recorded it in the last 30 minutes',
      tag: 'E-mail',
      json: sendEstimateRequestSchema,
      success: accepted('The e-mail is queued', sendEstimateResponseSchema),
      errors: [404, 429],
      handler: async (c, { db, mail, clientIp }, input) => {
        const request = await input.body();
        const found = await findEstimateAndAgent(db, request.estimate_uuid, {
          email: request.recipient_email,
          withinMinutes: SEND_ESTIMATE_LEAD_MINUTES,
        });
        if (!found) throw new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' });
        if (!found.hasRecentLead) {
          throw new HttpError(403, SEND_ESTIMATE_NO_LEAD, { recipient_email: SEND_ESTIMATE_NO_LEAD });
        }
        await enforceRateLimits(db, [
          rateCheck(LEAD_LIMITS.sendEstimatePerEstimate, `send-estimate:estimate:${found.estimate.uuid}`),
          estimateEmailCheck(request.recipient_email),
          ...perIpCheck(clientIp(c), LEAD_LIMITS.sendEstimatePerIp, 'send-estimate'),
        ]);
        const content = estimateEmail({
          estimate: found.estimate,
          agent: found.agent,
          siteUrl: mail.siteUrl(c.req.raw),
        });
        const deliveryId = await queueEmail(db, {
          kind: 'estimate',
          // recipient_name is checked (the API keeps it) but not mailed: the product's words only (finding 2).
          to: { email: request.recipient_email },
          ...content,
          estimateUuid: found.estimate.uuid,
        });
        mail.deliverSoon([deliveryId], c.req.raw);
        return c.json({ success: true, message: SEND_ESTIMATE_SUCCESS, delivery_id: deliveryId }, 202);
      },
    }),
    /** Follow-up messages the agent can send the seller about an estimate. One round trip. */
    op({
      method: 'POST',
      path: '/api/templates',
      access: 'public',
      summary: "Follow-up e-mail texts for an estimate's agent to send",
      tag: 'E-mail',
      json: templatesRequestSchema,
      success: ok('The templates'),
      errors: [404],
      handler: async (c, { db, mail }, input) => {
        const request = await input.body();
        const found = await findEstimateAndAgent(db, request.uuid);
        if (!found) throw new HttpError(404, 'Estimate not found', { uuid: 'Estimate not found' });
        const templates = followUpTemplates({
          estimate: found.estimate,
          firstName: request.first_name,
          senderName: request.sender_name,
          siteUrl: mail.siteUrl(c.req.raw),
        });
        return c.json({ success: true, templates });
      },
    }),
  ],
);
