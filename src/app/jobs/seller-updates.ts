/**
 * The seller-updates job (netlify/functions/send-seller-updates.mts every 15 minutes; `npm start`
 * in its job loop): writes the updates due now, inside the site's sending window, and queues their
 * e-mails, which the e-mail job delivers (providers, retries, idempotency keys, suppression).
 *
 * Each run also sweeps the active rule over the signals of the last two hours (markActiveSince), so
 * a signal whose evaluation was lost (a crash between the click's signal and the rule) still makes
 * its seller active and alerts the agent. The rule is idempotent (a subscription moves only to a
 * trigger newer than its active_at, and the agent hears at most once a week), so the windows of
 * successive runs overlapping, eight runs looking at each signal, changes nothing.
 */
import { markActiveSince } from '../../features/seller-updates/public/active.server.ts';
import { runSellerUpdates, type RunReport } from '../../features/seller-updates/public/digest-run.server.ts';
import { updateLinkSigner } from '../../features/seller-updates/public/update-links.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../../platform/db.ts';
import { TIME_BUDGET_MS } from './budget.ts';

/** How far back each run's sweep looks: longer than the 15 minutes between runs, so a missed run or two loses nothing. */
export const SWEEP_WINDOW_MS = 2 * 60 * 60 * 1000;

export interface SellerUpdatesJobReport extends RunReport {
  /** Subscriptions the sweep made active, and how many of their agents it alerted. */
  activated: number;
  alerted: number;
}

export async function sendSellerUpdates(
  db: Db,
  { siteUrl, auth }: Required<Pick<AppDeps, 'siteUrl' | 'auth'>>,
  now: Date = new Date(),
): Promise<SellerUpdatesJobReport> {
  // Outside the sending window too: it alerts agents (and queues CRM events), not sellers.
  const swept = await markActiveSince(db, new Date(now.getTime() - SWEEP_WINDOW_MS), { siteUrl });
  const report = await runSellerUpdates(
    db,
    { siteUrl, signer: updateLinkSigner(auth.sessionKey) },
    { asOf: now, budgetMs: TIME_BUDGET_MS },
  );
  return { ...report, activated: swept.activated.length, alerted: swept.alerted.length };
}
