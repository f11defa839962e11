/** The webhooks job (netlify/functions/deliver-webhooks.mts every minute; `npm start` about once a minute). */
import {
  deliverWebhooks,
  type WebhookContext,
  type WebhookRunReport,
} from '../../features/webhooks/public/webhook-deliveries.server.ts';
import type { Db } from '../../platform/db.ts';
import { BATCH, TIME_BUDGET_MS } from './budget.ts';

/** Sends the webhook deliveries that are due: retries, and those whose request ended before sending them. */
export const deliverDueWebhooks = (db: Db, { webhooks }: { webhooks: WebhookContext }): Promise<WebhookRunReport> =>
  deliverWebhooks(db, webhooks, { limit: BATCH, budgetMs: TIME_BUDGET_MS });
