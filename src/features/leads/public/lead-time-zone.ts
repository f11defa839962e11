/**
 * Lead dates are the days of the agent's market. A module of its own so that a screen which only
 * shows a time (the site's build, the data runs, a lead's timeline) does not load the lead list's
 * schemas with it (issue 23: the signed-in screens' JavaScript).
 */
export const LEAD_TIME_ZONE = 'America/New_York';
