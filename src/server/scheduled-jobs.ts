/**
 * The work the scheduled functions do, in one place: on Netlify each runs in its own function
 * (netlify/functions/deliver-email.mts every 5 minutes, sync-crm.mts every minute); `npm start`
 * runs both about once a minute in its own process (scripts/serve.ts), so queued work completes
 * without Netlify. The automatic rebuild (rebuild-site.mts every minute) runs the same way.
 */
import { syncDue, type SyncReport } from '../features/crm/crm-sync.server.ts';
import { deliverQueued } from '../features/email/email.server.ts';
import { estimateAttachments } from '../features/net-sheet/estimate-pdf.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../features/email/unsubscribe.server.ts';
import { rebuildWhenDue } from '../features/site-build/site-build.server.ts';
import type { appDepsFrom } from './compose.ts';
import type { Db } from './db.ts';

type Deps = ReturnType<typeof appDepsFrom>;

/** Stop claiming new batches after this long; scheduled functions may run for 30 seconds. */
const TIME_BUDGET_MS = 20_000;
const BATCH = 50;

export interface EmailReport {
  sent: number;
  retrying: number;
  failed: number;
  suppressed: number;
}

/** Sends whatever e-mail is due: retries of failed attempts and anything not delivered after its response. */
export async function deliverDueEmail(db: Db, { email, siteUrl, auth }: Deps): Promise<EmailReport> {
  // The same links as the API puts in the mail it delivers right away (src/server/app.ts).
  const unsubscribe = unsubscribeLinks(siteUrl, unsubscribeSigner(auth.sessionKey));
  const started = Date.now();
  const totals: EmailReport = { sent: 0, retrying: 0, failed: 0, suppressed: 0 };
  for (;;) {
    const report = await deliverQueued(db, email.provider, {
      from: email.from,
      unsubscribe,
      limit: BATCH,
      attachments: estimateAttachments(db, siteUrl),
      // The message went without its PDF; the log says which one and why.
      attachmentError: (error, deliveryId) => console.error(`e-mail #${deliveryId} sent without its attachment`, error),
    });
    totals.sent += report.sent.length;
    totals.retrying += report.retrying.length;
    totals.failed += report.failed.length;
    totals.suppressed += report.suppressed.length;
    const claimed = report.sent.length + report.retrying.length + report.failed.length + report.suppressed.length;
    if (claimed < BATCH || Date.now() - started > TIME_BUDGET_MS) return totals;
  }
}

/** Sends the CRM syncs that are due: retries, and those whose sender stopped before it settled them. */
export const syncDueLeads = (db: Db, { crm }: Deps): Promise<SyncReport> =>
  syncDue(db, crm, { limit: BATCH, budgetMs: TIME_BUDGET_MS });

/**
 * Starts a rebuild of the static site once its changes have settled for `debounceMs`
 * (REBUILD_DEBOUNCE_MS): several saves in a row make one build. Does not wait for the build.
 */
export const rebuildSiteWhenDue = async (db: Db, { siteBuilds }: Deps, debounceMs: number, now = new Date()) =>
  siteBuilds ? rebuildWhenDue(db, siteBuilds, { debounceMs, now }) : 'no way to build';
