/**
 * The seller-updates job (netlify/functions/send-seller-updates.mts every 15 minutes; `npm start`
 * in its job loop): writes the updates due now, inside the site's sending window, and queues their
 * e-mails, which the e-mail job delivers (providers, retries, idempotency keys, suppression).
 */
import { runSellerUpdates, type RunReport } from '../../features/seller-updates/public/digest-run.server.ts';
import { updateLinkSigner } from '../../features/seller-updates/public/update-links.server.ts';
import type { AppDeps } from '../api-app.ts';
import type { Db } from '../../platform/db.ts';
import { TIME_BUDGET_MS } from './budget.ts';

export const sendSellerUpdates = (
  db: Db,
  { siteUrl, auth }: Required<Pick<AppDeps, 'siteUrl' | 'auth'>>,
  now: Date = new Date(),
): Promise<RunReport> =>
  runSellerUpdates(db, { siteUrl, signer: updateLinkSigner(auth.sessionKey) }, { asOf: now, budgetMs: TIME_BUDGET_MS });
