/** POST /api/email/send-estimate and POST /api/templates. */
import { Hono } from 'hono';
import type { Db } from '../../server/db.ts';
import { HttpError, readJson, route } from '../../server/http.ts';
import { queueEmail, type MailContext } from './email.server.ts';
import { followUpTemplates, templatesRequestSchema } from './follow-up-templates.ts';
import { findEstimateAndAgent } from './lookups.server.ts';
import { SEND_ESTIMATE_SUCCESS, sendEstimateRequestSchema } from './send-estimate.ts';
import { estimateEmail } from './templates.ts';

export function emailRoutes(db: Db, mail: MailContext): Hono {
  const app = new Hono();

  /**
   * The estimate page's "Send this to my email". Two round trips: the estimate with its agent, then
   * the delivery row (one statement). Answers 202 once the message is queued; it is sent after
   * the response. If it cannot be queued the visitor is told so (500), since sending is the point.
   */
  route(app, '/email/send-estimate', {
    POST: async (c) => {
      const request = await readJson(c, sendEstimateRequestSchema);
      const found = await findEstimateAndAgent(db, request.estimate_uuid);
      if (!found) throw new HttpError(404, 'Estimate not found', { estimate_uuid: 'Estimate not found' });
      const content = estimateEmail({
        estimate: found.estimate,
        recipientName: request.recipient_name,
        agent: found.agent,
        siteUrl: mail.siteUrl(c.req.raw),
      });
      const deliveryId = await queueEmail(db, {
        kind: 'estimate',
        to: { email: request.recipient_email, name: request.recipient_name },
        ...content,
        estimateUuid: found.estimate.uuid,
      });
      mail.deliverSoon([deliveryId], c.req.raw);
      return c.json({ success: true, message: SEND_ESTIMATE_SUCCESS, delivery_id: deliveryId }, 202);
    },
  });

  /** Follow-up messages the agent can send the seller about an estimate. One round trip. */
  route(app, '/templates', {
    POST: async (c) => {
      const request = await readJson(c, templatesRequestSchema);
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
  });

  return app;
}
