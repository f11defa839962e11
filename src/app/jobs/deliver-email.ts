/**
 * The e-mail job (netlify/functions/deliver-email.mts every 5 minutes; `npm start` about once a
 * minute). Its own module: it alone of the jobs attaches the estimate PDF (pdf-lib), so the other
 * jobs' functions do not carry it (decision 0026).
 */
import { deliverQueued } from '../../features/email/email-delivery.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../../features/email/unsubscribe.server.ts';
import { estimateAttachments } from '../../features/email/estimate-attachments.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../../platform/db.ts';
import { BATCH, TIME_BUDGET_MS } from './budget.ts';

export interface EmailReport {
  sent: number;
  retrying: number;
  failed: number;
  suppressed: number;
}

/** Sends whatever e-mail is due: retries of failed attempts and anything not delivered after its response. */
export async function deliverDueEmail(
  db: Db,
  { email, siteUrl, auth }: Required<Pick<AppDeps, 'email' | 'siteUrl' | 'auth'>>,
): Promise<EmailReport> {
  // The same links as the API puts in the mail it delivers right away (src/app/api-app.ts).
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
