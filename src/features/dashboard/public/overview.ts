/**
 * GET /api/agents/me/overview: the signed-in agent's figures, shared by the route (which builds
 * the answer) and the overview screen (which parses it).
 */
import * as z from 'zod/mini';
import { LONG_ISLAND_TIME_ZONE } from '../../../ui/long-island-time.ts';

/** Weeks in the chart (the current one last), and the most activity items the list shows. */
export const OVERVIEW_WEEKS = 12;
export const ACTIVITY_LIMIT = 15;

/** Weeks start on Monday and months on the 1st in the agent's market's time. */
export const OVERVIEW_TIME_ZONE = LONG_ISLAND_TIME_ZONE;

export const ACTIVITY_TYPES = ['estimate', 'lead', 'other'] as const;

export const activitySchema = z.object({
  type: z.enum(ACTIVITY_TYPES),
  /** The word the list shows for it: the spec's three types leave e-mails, syncs and agents all "other". */
  label: z.string(),
  message: z.string(),
  /** ISO 8601. */
  timestamp: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const weekSchema = z.object({
  /** The Monday the week starts on, YYYY-MM-DD in New York. */
  week_start: z.string(),
  estimates: z.number(),
  leads: z.number(),
});
export type Week = z.infer<typeof weekSchema>;

export const overviewSchema = z.object({
  leads_total: z.number(),
  estimates_total: z.number(),
  leads_this_month: z.number(),
  /** Leads ÷ estimates in percent, one decimal; null without estimates. */
  conversion_percent: z.nullable(z.number()),
  weeks: z.array(weekSchema),
  activities: z.array(activitySchema),
});
export type Overview = z.infer<typeof overviewSchema>;

export const overviewResponseSchema = z.object({ success: z.literal(true), overview: overviewSchema });

/** Leads per 100 estimates, to one decimal; null when there is nothing to divide by. */
export function conversionPercent(leads: number, estimates: number): number | null {
  return estimates === 0 ? null : Math.round((leads * 1000) / estimates) / 10;
}
