import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { createBatcher } from '../../platform/batcher.ts';
import { HttpError, jsonObject, parseOrThrow, readJson } from '../../platform/http.ts';
import { apiGroup, created, json, ok } from '../../platform/operation.ts';
import { perIpCheck } from '../../platform/per-ip.server.ts';
import { countHitsStatement, secondsLeft, TooManyAttempts, type RateCheck } from '../../platform/rate-limit.server.ts';
import { SYSTEM_DEFAULTS } from '../net-sheet/public/estimate.ts';
import { queueEstimateWebhooksCte } from '../webhooks/public/webhook-events.server.ts';
import { ESTIMATE_LIMITS } from '../net-sheet/public/estimate-limits.server.ts';
import { estimateRequestSchema } from '../net-sheet/public/estimate-request.ts';
import { postDetailedEstimate } from '../net-sheet/public/sheet-estimates.server.ts';
import { detailedEstimateRequestSchema } from '../net-sheet/public/requests.ts';
import { detailedEstimateAnswerSchema } from '../net-sheet/public/sheet-answer.ts';
import {
  ESTIMATE_COLUMNS,
  estimateParams,
  findEstimate,
  toEstimate,
  type EstimateRow,
} from '../net-sheet/public/estimate-row.server.ts';

type NewEstimate = z.output<typeof estimateRequestSchema>;

/** A quick estimate to store, with its client's per-IP counter (none for a local client). */
interface QuickEstimate {
  request: NewEstimate;
  ipCheck: RateCheck | undefined;
}

/** A stored estimate; null when its agent does not exist (or is not active); or its client's 429. */
type StoredQuickEstimate = EstimateRow | TooManyAttempts | null;

/**
 * One round trip for any number of estimates: counts each client's hits (the per-IP limit), finds
 * each active agent by slug, takes their rates (system defaults where unset) and stores the
 * estimates with them, except those whose client is over its limit. A client with n estimates in
 * the batch counts n hits at once; its k-th is stored when the counter, after all n, is at most
 * the limit plus the n - k that came after it, so exactly the first ones within the limit are.
 */
async function insertEstimates(db: Db, estimates: QuickEstimate[]): Promise<StoredQuickEstimate[]> {
  const uuids = estimates.map(() => randomUUID());
  const ipChecks = estimates.flatMap(({ ipCheck }) => (ipCheck ? [ipCheck] : []));
  const total = new Map<string, number>();
  for (const { key } of ipChecks) total.set(key, (total.get(key) ?? 0) + 1);
  const seen = new Map<string, number>();
  const later = estimates.map(({ ipCheck }) => {
    if (!ipCheck) return 0;
    const place = (seen.get(ipCheck.key) ?? 0) + 1;
    seen.set(ipCheck.key, place);
    return (total.get(ipCheck.key) ?? place) - place;
  });
  const params: unknown[] = [
    uuids,
    estimates.map(({ request }) => request.agent_slug),
    estimates.map(({ request }) => request.sale_price),
    estimates.map(({ request }) => request.mortgage_payoff),
    estimates.map(({ request }) => request.recipient_name),
    estimates.map(({ ipCheck }) => ipCheck?.key ?? null),
    later,
    ESTIMATE_LIMITS.estimatesPerIp.limit,
    SYSTEM_DEFAULTS.commissionPercent,
    SYSTEM_DEFAULTS.transferTaxRatePer1000,
    SYSTEM_DEFAULTS.attorneyFeeCents,
    SYSTEM_DEFAULTS.recordingFeeCents,
  ];
  // Local clients count nothing: the statement then skips the counters' upsert altogether.
  const counting = ipChecks.length > 0 ? countHitsStatement(ipChecks, { firstParam: params.length + 1 }) : undefined;
  params.push(...(counting?.params ?? []));
  const rows = await db.query<InsertedEstimateRow>(
    `WITH hits AS (${counting?.sql ?? 'SELECT NULL::text AS key, 0 AS hits, 0::float8 AS elapsed WHERE false'}),
     inserted AS (
       INSERT INTO estimates (uuid, agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                              transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name)
       SELECT r.uuid, a.id, r.sale_price_cents, r.mortgage_payoff_cents,
              coalesce(s.default_commission_percent, $9),
              coalesce(s.transfer_tax_rate_per_1000, $10),
              coalesce(s.default_attorney_fee_cents, $11),
              coalesce(s.default_recording_fee_cents, $12),
              r.recipient_name
         FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::integer[])
                AS r (uuid, agent_slug, sale_price_cents, mortgage_payoff_cents, recipient_name, ip_key, later)
         JOIN agents a ON a.slug = r.agent_slug AND a.status = 'active'
         LEFT JOIN agent_settings s ON s.agent_id = a.id
         LEFT JOIN hits h ON h.key = r.ip_key
        WHERE h.key IS NULL OR h.hits - r.later <= $8
       RETURNING ${ESTIMATE_COLUMNS}
     ),
     -- A visitor's estimate is an event an agent's (or the site's) webhooks may ask for (issue 26).
     ${queueEstimateWebhooksCte('hooks', 'inserted')}
     SELECT q.uuid::text AS request_uuid, q.later, h.hits AS ip_hits, h.elapsed AS ip_elapsed, i.*
       FROM unnest($1::uuid[], $6::text[], $7::integer[]) AS q (uuid, ip_key, later)
       LEFT JOIN inserted i ON i.uuid = q.uuid
       LEFT JOIN hits h ON h.key = q.ip_key`,
    params,
  );
  const byUuid = new Map(rows.map((row) => [row.request_uuid, row]));
  return estimates.map(({ request }, index) => {
    const row = byUuid.get(uuids[index] ?? '');
    if (!row) return null;
    const { uuid, later, ip_hits: hits, ip_elapsed: elapsed } = row;
    if (uuid !== null) return { ...row, uuid, agent_slug: request.agent_slug };
    const limit = ESTIMATE_LIMITS.estimatesPerIp;
    // Not stored: over its client's limit, or (within it) an agent that does not exist.
    if (hits !== null && elapsed !== null && hits - later > limit.limit) {
      return new TooManyAttempts(secondsLeft(limit, elapsed));
    }
    return null;
  });
}

/** A row of insertEstimates: the request's counter, and its estimate (all null when none was stored). */
type InsertedEstimateRow = Omit<EstimateRow, 'agent_slug' | 'uuid'> & {
  uuid: string | null;
  request_uuid: string;
  later: number;
  ip_hits: number | null;
  ip_elapsed: number | null;
};

/** Estimates: a new one (quick, or with `details` a detailed net sheet) and a stored one. */
export const estimatesApi = apiGroup(
  ({ db, clientIp }: { db: Db; clientIp: (c: Context) => string }) => ({
    db,
    clientIp,
    // Concurrent estimates share one INSERT (see docs/decisions/0005-batched-estimate-inserts.md).
    insertEstimate: createBatcher((estimates: QuickEstimate[]) => insertEstimates(db, estimates)),
  }),
  (op) => [
    op({
      method: 'POST',
      path: '/api/estimates',
      access: 'public',
      summary: 'A new estimate: the quick one, or with `details` a detailed net sheet',
      tag: 'Estimates',
      body: json(detailedEstimateRequestSchema),
      success: created(
        'The stored estimate, and its sheet when details were sent',
        detailedEstimateAnswerSchema.partial({ sheet: true }),
      ),
      errors: [404],
      handler: async (c, { db, clientIp, insertEstimate }) => {
        const body = await readJson(c, jsonObject);
        const [ipCheck] = perIpCheck(clientIp(c), ESTIMATE_LIMITS.estimatesPerIp, 'estimate');
        // With the seller's details: a detailed sheet, stored with the estimate (issue 12).
        if (body.details !== undefined) return postDetailedEstimate(c, db, body, ipCheck);
        const request = parseOrThrow(estimateRequestSchema, body);
        const row = await insertEstimate({ request, ipCheck });
        if (row instanceof TooManyAttempts) throw row;
        if (!row) throw new HttpError(404, 'Agent not found', { agent_slug: 'Agent not found' });
        return c.json({ success: true, estimate: toEstimate(row) }, 201);
      },
    }),
    op({
      method: 'GET',
      path: '/api/estimates/:uuid',
      access: 'public',
      summary: 'A stored estimate (a detailed one with its sheet)',
      tag: 'Estimates',
      params: estimateParams,
      success: ok('The estimate', detailedEstimateAnswerSchema.omit({ sheet: true })),
      errors: [404],
      handler: async (c, { db }, input) => {
        const { uuid } = input.params();
        const row = await findEstimate(db, uuid.toLowerCase());
        if (!row) throw new HttpError(404, 'Estimate not found');
        return c.json({ success: true, estimate: toEstimate(row) });
      },
    }),
  ],
);
