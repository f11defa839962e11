/**
 * A stored estimate at a new price on an agent's current terms (issue 25's seller updates): the
 * estimate's own details (liens, concessions, property type, county…) with its closing date dropped,
 * so the agent's days to closing count from today; the agent's current rates, defaults and the fee
 * table in force (`terms`, agentTermsOf). A quick estimate stays quick (no details: the quick
 * estimate's lines). Pure but for the new estimate's id; the caller writes the row
 * (insertSheetEstimatesStatement), in its own statement.
 */
import { randomUUID } from 'node:crypto';
import { jsonObject } from '../../../platform/http.ts';
import { computeDetailedSheet } from '../detailed-sheet.ts';
import { storedDetailsSchema } from '../details.ts';
import { computeEstimate } from './estimate.ts';
import type { AgentTerms, SheetEstimateRow } from './sheet-estimates.server.ts';

/** What of a stored estimate is re-priced: its payoff and its details as sent (NULL for a quick one). */
export interface RepricedFrom {
  mortgage_payoff_cents: number;
  details: unknown;
}

export interface RepricedEstimate {
  /** The new estimate's row, for insertSheetEstimatesStatement. */
  row: SheetEstimateRow;
  /** The seller's net at the new price (a detailed estimate's is its sheet's, as toEstimate tells it). */
  netCents: number;
}

/** Throws when the stored details no longer read (a hand-edited row): never a different sheet. */
export function repricedEstimate(from: RepricedFrom, terms: AgentTerms, salePriceCents: number): RepricedEstimate {
  const sent =
    from.details === null || from.details === undefined
      ? undefined
      : // The closing date goes: today's days to closing apply, not a date that may have passed.
        Object.fromEntries(Object.entries(jsonObject.parse(from.details)).filter(([key]) => key !== 'closing_date'));
  const details = sent === undefined ? undefined : storedDetailsSchema.parse(sent);
  // As createSheetEstimate: the liens, when listed, are the payoff.
  const liens = details?.liens;
  const payoff = liens?.length ? liens.reduce((sum, lien) => sum + lien.payoff, 0) : from.mortgage_payoff_cents;
  const quick = { ...terms.rates, mortgagePayoffCents: payoff, salePriceCents };
  const base = { uuid: randomUUID(), agentId: terms.agentId, quick, recipientName: null };
  if (!details || !sent) {
    return { row: { ...base, stored: [null, null, null] }, netCents: computeEstimate(quick).netToSellerCents };
  }
  const options = { today: terms.basis.today, defaults: terms.basis.defaults };
  const sheet = computeDetailedSheet(quick, details, terms.basis.fees, options);
  return {
    row: { ...base, stored: [JSON.stringify(sent), JSON.stringify(sheet), JSON.stringify(terms.basis)] },
    netCents: sheet.net_cents,
  };
}
