/**
 * GET and POST /api/admin/site-build: whether the static site shows the latest data, and the
 * latest build; shared by the routes (which build the answers) and SiteBuildCard (which parses them).
 */
import * as z from 'zod/mini';

export const siteBuildSchema = z.object({
  id: z.number(),
  trigger: z.enum(['button', 'auto']),
  mode: z.enum(['hook', 'local']),
  /** The change time (ISO) the build includes. */
  data_at: z.string(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  status: z.enum(['running', 'succeeded', 'failed']),
  error: z.nullable(z.string()),
});
export type SiteBuild = z.infer<typeof siteBuildSchema>;

export const siteBuildStateSchema = z.object({
  /** Something the pages show changed after the data of the last succeeded build (or none is known). */
  needs_rebuild: z.boolean(),
  /** The last change to anything the pages show (ISO). */
  changed_at: z.string(),
  /** The newest build, whatever its status (running, succeeded or failed). */
  last_build: z.nullable(siteBuildSchema),
  /** The newest succeeded build's finish time: what visitors see is from then. */
  last_succeeded_at: z.nullable(z.string()),
});
export type SiteBuildState = z.infer<typeof siteBuildStateSchema>;

export const siteBuildResponseSchema = z.extend(siteBuildStateSchema, { success: z.literal(true) });

/** POST: 202 whether a build started now or was queued behind the running one. */
export const siteBuildStartedSchema = z.extend(siteBuildResponseSchema, {
  /** True when a build was running: one more build follows it (however many times Rebuild is pressed). */
  queued: z.boolean(),
});

/** The TanStack Query key of the build state: screens that change the site's data refresh it. */
export const SITE_BUILD_QUERY_KEY = ['site-build'];

export const SITE_BUILD_MESSAGES = {
  cannotBuild: 'This server cannot rebuild the site: set BUILD_HOOK_URL, or run it with npm start',
} as const;
