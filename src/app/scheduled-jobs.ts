/**
 * The work the scheduled functions do: on Netlify each runs in its own function
 * (netlify/functions/deliver-email.mts every 5 minutes, sync-crm.mts, rebuild-site.mts and
 * deliver-webhooks.mts every minute, send-seller-updates.mts every 15 minutes), each importing only
 * its own job from src/app/jobs/ so that it carries only what that job runs (decision 0026);
 * `npm start` runs all five about once a minute in its own process
 * (scripts/serve.ts), so queued work completes without Netlify.
 */
export { deliverDueEmail, type EmailReport } from './jobs/deliver-email.ts';
export { syncDueLeads } from './jobs/sync-crm.ts';
export { rebuildSiteWhenDue } from './jobs/rebuild-site.ts';
export { sendSellerUpdates } from './jobs/seller-updates.ts';
export { deliverDueWebhooks } from './jobs/deliver-webhooks.ts';
