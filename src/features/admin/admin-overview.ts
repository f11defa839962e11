/**
 * GET /api/admin/overview and GET /api/admin/activity: the whole site's figures and recent activity,
 * shared by the routes (which build the answers) and the admin overview screen (which parses them).
 */
import * as z from 'zod/mini';
import { activitySchema, weekSchema } from '../dashboard/public/overview.ts';

/** The answer to a signed-in agent who is not an admin (403). */
export const ADMINS_ONLY = 'Only admins can see the site’s figures';

export const adminOverviewSchema = z.object({
  leads_total: z.number(),
  estimates_total: z.number(),
  /** Agents whose status is active. */
  active_agents: z.number(),
  /** Leads ÷ estimates in percent, one decimal; null without estimates. */
  conversion_percent: z.nullable(z.number()),
  /** Estimates and leads of every agent per week, the current one last. */
  weeks: z.array(weekSchema),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const adminOverviewResponseSchema = z.object({ success: z.literal(true), overview: adminOverviewSchema });

export const adminActivityResponseSchema = z.object({ success: z.literal(true), activities: z.array(activitySchema) });
