/**
 * The seller-updates routes of the run (decision 0056):
 * - POST /api/admin/digests/run (admins): sends what is due now, ignoring the sending window (an
 *   admin asked now) but honouring the switches; outside production `as_of` runs the clock forward
 *   (a test, or an admin seeing what a later day sends). The e-mails go after the response.
 * - POST /api/dashboard/updates/sample (an agent): a sample update to the agent's own address.
 */
import * as z from 'zod';
import { checkAdmin, readJsonAsAdmin, sessionOf } from '../auth/public/access.server.ts';
import type { MailContext } from '../email/public/email.server.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError, readJson } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { longIslandInstant } from '../../ui/long-island-time.ts';
import { runSellerUpdates } from './public/digest-run.server.ts';
import type { UpdateLinkSigner } from './public/update-links.server.ts';
import { queueSample } from './sample-update.server.ts';

export const AS_OF_IN_PRODUCTION = 'as_of is accepted only outside production: production sends what is due now';
export const AS_OF_FORMAT = 'as_of must be an ISO date (2026-12-01) or date-time (2026-12-01T14:00:00Z)';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const realDay = (day: string): boolean => {
  const at = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === day;
};

export const runRequestSchema = z.strictObject({
  as_of: z
    .string({ error: AS_OF_FORMAT })
    .refine((value) => DATE_ONLY.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success, AS_OF_FORMAT)
    .refine((value) => !Number.isNaN(Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value)), AS_OF_FORMAT)
    // A day the calendar has: Date.parse rolls 2027-02-30 over to March 2 rather than refusing it.
    .refine((value) => realDay(value.slice(0, 10)), AS_OF_FORMAT)
    .optional(),
});

export const runAnswerSchema = z.object({
  success: z.literal(true),
  due: z.number(),
  sent: z.number(),
  skipped: z.number(),
});

export const sampleRequestSchema = z.strictObject({
  lead_id: z
    .number({ error: 'lead_id must be a number' })
    .int('lead_id must be a whole number')
    .positive('lead_id must be positive')
    // A lead id is an integer column: anything larger names no lead.
    .max(2_147_483_647, 'lead_id is not a lead')
    .optional(),
});

export const sampleAnswerSchema = z.object({ success: z.literal(true), message: z.string() });

/** What the routes are built from (src/app/api-groups.server.ts). */
export interface DigestRoutesDeps {
  db: Db;
  mail: MailContext;
  signer: UpdateLinkSigner;
  /** Production refuses `as_of`. */
  production: boolean;
}

/** A date is its whole Long Island day: what is due by its end (23:59:59.999 there). */
const asOfInstant = (value: string): Date =>
  DATE_ONLY.test(value) ? new Date(longIslandInstant(value, 23, 59).getTime() + 59_999) : new Date(value);

export const digestApi = apiGroup(
  (deps: DigestRoutesDeps) => deps,
  (op) => [
    op({
      method: 'POST',
      path: '/api/admin/digests/run',
      access: 'admin',
      summary: 'Sends the seller updates due now (outside production: due at `as_of`), ignoring the sending window',
      tag: 'Seller updates',
      json: runRequestSchema,
      success: ok('What was due, sent and skipped', runAnswerSchema),
      handler: async (c, { db, mail, signer, production }) => {
        const body = await readJsonAsAdmin(c, db, runRequestSchema);
        await checkAdmin(c, db);
        if (body.as_of !== undefined && production)
          throw new HttpError(400, AS_OF_IN_PRODUCTION, { as_of: AS_OF_IN_PRODUCTION });
        const asOf = body.as_of === undefined ? new Date() : asOfInstant(body.as_of);
        const report = await runSellerUpdates(
          db,
          { siteUrl: mail.siteUrl(c.req.raw), signer },
          { asOf, ignoreWindow: true },
        );
        mail.deliverSoon(report.deliveryIds, c.req.raw);
        return c.json({ success: true, due: report.due, sent: report.sent, skipped: report.skipped });
      },
    }),
    op({
      method: 'POST',
      path: '/api/dashboard/updates/sample',
      access: 'agent',
      summary: 'Sends the signed-in agent a sample seller update (to their own address only)',
      tag: 'Seller updates',
      json: sampleRequestSchema,
      success: ok('Queued', sampleAnswerSchema),
      errors: [404, 429],
      handler: async (c, { db, mail }) => {
        const body = await readJson(c, sampleRequestSchema);
        const { to, deliveryIds } = await queueSample(db, {
          agentId: sessionOf(c).agentId,
          leadId: body.lead_id ?? null,
          siteUrl: mail.siteUrl(c.req.raw),
          now: new Date(),
        });
        mail.deliverSoon(deliveryIds, c.req.raw);
        // Queued, not yet sent: the answer says so (the e-mail job sends it within a minute).
        return c.json({ success: true, message: `Sample queued for ${to}: it arrives within a few minutes` });
      },
    }),
  ],
);
