/**
 * The webhooks card's server state (issue 26): one cached list per API base (an agent's own
 * endpoints, or the site's on /admin/settings), each endpoint's delivery log, and the times shown on
 * Long Island.
 */
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { LONG_ISLAND_TIME_ZONE } from '../../../ui/long-island-time.ts';
import { getJson } from '../../accounts/public/account-query.ts';
import { webhookDeliveriesSchema, webhookListSchema } from './webhooks.ts';

/** Where the card reads and writes: the agent's endpoints, or the site's (admins, every agent's leads). */
export type WebhooksBase = '/api/webhooks' | '/api/admin/webhooks';

export const webhooksQueryKey = (base: WebhooksBase) => ['webhooks', base];
export const deliveriesQueryKey = (base: WebhooksBase, id: number) => ['webhooks', base, id, 'deliveries'];

export const useWebhookEndpoints = (base: WebhooksBase) =>
  useQuery({
    queryKey: webhooksQueryKey(base),
    queryFn: async () => (await getJson(base, webhookListSchema)).endpoints,
  });

export const useWebhookDeliveries = (base: WebhooksBase, id: number) =>
  useQuery({
    queryKey: deliveriesQueryKey(base, id),
    queryFn: async () => (await getJson(`${base}/${id}/deliveries`, webhookDeliveriesSchema)).deliveries,
    // The log is read when opened: what was sent since the last look, not a 30 s old copy.
    staleTime: 0,
  });

/** A removal's answer. */
export const webhookRemovedSchema = z.object({ success: z.literal(true), message: z.string() });

// Made once, on first use: a formatter costs tens of µs to build.
let timeFormat: Intl.DateTimeFormat | undefined;

/** "Nov 27, 2026, 9:14 AM": an instant as Long Island's clock shows it. */
export function longIslandTimeText(iso: string): string {
  timeFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: LONG_ISLAND_TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : timeFormat.format(at);
}

/** A delivery's status in words, and its badge's tone. */
export const DELIVERY_STATUS: Readonly<Record<string, { words: string; badge: string }>> = {
  queued: { words: 'Waiting', badge: 'badge-wait' },
  sending: { words: 'Sending', badge: 'badge-wait' },
  delivered: { words: 'Delivered', badge: 'badge-on' },
  failed: { words: 'Failed', badge: 'badge-bad' },
  stopped: { words: 'Stopped', badge: 'badge-bad' },
};

export const deliveryStatus = (status: string) => DELIVERY_STATUS[status] ?? { words: status, badge: 'badge-off' };
