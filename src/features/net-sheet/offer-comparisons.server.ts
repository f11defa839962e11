/** Stored offer comparisons: found by their uuid, and answered as the API and the offers page show them. */
import * as z from 'zod';
import type { Db } from '../../platform/db.ts';
import { centsToDollars } from '../../ui/money.ts';
import { estimateParams } from './public/estimate-row.server.ts';
import { toSheetAnswer } from './public/sheet-answer.ts';
import { storedOfferSchema, type StoredOffer } from './stored-sheet.ts';

export const toOfferAnswer = ({ sheet, ...offer }: StoredOffer) => ({
  price: centsToDollars(offer.price_cents),
  concessions: centsToDollars(offer.concessions_cents),
  buyer_agent_percent: offer.buyer_agent_percent,
  closing_date: offer.closing_date,
  financing: offer.financing,
  net_to_seller: centsToDollars(offer.net_cents),
  behind_best: centsToDollars(offer.behind_best_cents),
  best: offer.best,
  sheet: toSheetAnswer(sheet),
});

export interface ComparisonRow {
  uuid: string;
  estimate_uuid: string;
  agent_slug: string;
  comparison: unknown;
  created_at: Date;
}

export const toComparisonAnswer = (row: ComparisonRow) => ({
  uuid: row.uuid,
  estimate_uuid: row.estimate_uuid,
  agent_slug: row.agent_slug,
  created_at: row.created_at.toISOString(),
  offers: z.array(storedOfferSchema).parse(row.comparison).map(toOfferAnswer),
});

/** A stored comparison by its (lower-case) uuid, as GET /api/offers/{uuid} and the /offers/{uuid} page find it. */
export async function findComparison(db: Db, uuid: string): Promise<ComparisonRow | undefined> {
  const [row] = await db.query<ComparisonRow>(
    `SELECT o.uuid, o.estimate_uuid, a.slug AS agent_slug, o.comparison, o.created_at
       FROM offer_comparisons o JOIN estimates e ON e.uuid = o.estimate_uuid JOIN agents a ON a.id = e.agent_id
      WHERE o.uuid = $1`,
    [uuid],
  );
  return row;
}

export const comparisonParams = z.object({
  uuid: estimateParams.shape.uuid.transform((uuid) => uuid.toLowerCase()),
});
