/**
 * Lead dates are the days of the agent's market. A module of its own so that a screen which only
 * shows a time (the site's build, the data runs, a lead's timeline) does not load the lead list's
 * schemas with it (issue 23: the signed-in screens' JavaScript).
 */
import { LONG_ISLAND_TIME_ZONE } from '../../../ui/long-island-time.ts';
export const LEAD_TIME_ZONE = LONG_ISLAND_TIME_ZONE;
