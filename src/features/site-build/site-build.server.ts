/**
 * Rebuilds of the static site (migration 0016): one at a time, asked for by an admin (POST
 * /api/admin/site-build) or by the scheduled job once changes have settled (rebuildWhenDue), done
 * by a SiteBuilder: Netlify's build hook (hookBuilder) or, on the local server that serves dist/,
 * a build into a new folder swapped in (local-build.server.ts).
 */
import * as z from 'zod/mini';
import { assertAdmin, sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { HttpError } from '../../platform/http.ts';
import { accepted, apiGroup, ok } from '../../platform/operation.ts';
import {
  SITE_BUILD_MESSAGES,
  siteBuildSchema,
  type SiteBuildState,
  siteBuildResponseSchema,
  siteBuildStartedSchema,
} from './public/site-build.ts';

export type BuildTrigger = 'button' | 'auto';

/** Builds the site; may answer the change time the build included, when it knows it exactly. */
export interface SiteBuilder {
  readonly mode: 'hook' | 'local';
  build(): Promise<{ dataAt: string } | void>;
}

export interface SiteBuilds {
  readonly mode: SiteBuilder['mode'];
  /**
   * Starts a build, or — while one runs — queues ONE follow-up build, however often it is asked.
   * Resolves once the build is recorded as running (not when it ends); `queued` when it waits.
   */
  request(trigger: BuildTrigger, requestedBy: number | null): Promise<{ queued: boolean }>;
  /** Resolves when this process has no build running or queued. */
  idle(): Promise<void>;
}

/** Asks Netlify to rebuild the site (the town pages are static): a POST to the build hook. */
export async function triggerRebuild(buildHookUrl: string, fetcher: typeof fetch = fetch): Promise<void> {
  const response = await fetcher(buildHookUrl, { method: 'POST', signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`The build hook answered ${response.status}`);
}

/** Production: the build hook's 2xx is the build's success here; Netlify builds and deploys from there. */
export const hookBuilder = (buildHookUrl: string, fetcher: typeof fetch = fetch): SiteBuilder => ({
  mode: 'hook',
  build: () => triggerRebuild(buildHookUrl, fetcher),
});

/** A build that ran longer than this is taken for one whose process died (its row stays 'running'). */
const ABANDONED_AFTER = '1 hour';

/**
 * Records a running build including the data as it is now, unless one is running already (the
 * unique index on running builds decides, across processes): then no row, undefined.
 */
async function claimBuild(db: Db, mode: SiteBuilder['mode'], trigger: BuildTrigger, requestedBy: number | null) {
  await db.query(
    `UPDATE site_builds SET status = 'failed', finished_at = now(), error = 'The build did not finish (its server stopped)'
      WHERE status = 'running' AND started_at < now() - interval '${ABANDONED_AFTER}'`,
  );
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO site_builds (trigger, requested_by, mode, data_at)
     SELECT $1, $2, $3, changed_at FROM site_changes WHERE id = 1
     ON CONFLICT DO NOTHING RETURNING id`,
    [trigger, requestedBy, mode],
  );
  return row?.id;
}

export function siteBuilds(
  db: Db,
  builder: SiteBuilder,
  logError: (error: unknown) => void = (error) => console.error('[site-build]', error),
): SiteBuilds {
  let current: Promise<void> | undefined;
  let followUp: { trigger: BuildTrigger; requestedBy: number | null } | undefined;

  const run = async (id: number) => {
    try {
      const result = await builder.build();
      await db.query(
        `UPDATE site_builds SET status = 'succeeded', finished_at = now(), data_at = coalesce($2::timestamptz, data_at)
          WHERE id = $1`,
        [id, result?.dataAt ?? null],
      );
    } catch (error) {
      await db.query(`UPDATE site_builds SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`, [
        id,
        (error instanceof Error ? error.message : String(error)).slice(0, 4000),
      ]);
    }
  };

  return {
    mode: builder.mode,
    // Async, but nothing before `current` is set awaits: a second request in the same tick sees it.
    async request(trigger, requestedBy) {
      if (current) {
        followUp ??= { trigger, requestedBy };
        return { queued: true };
      }
      const claimed = claimBuild(db, builder.mode, trigger, requestedBy);
      // Set before any await: a second request in the same tick is queued, not a second build.
      current = (async () => {
        let id = await claimed.catch(() => undefined);
        while (id !== undefined) {
          await run(id);
          const next = followUp;
          followUp = undefined;
          id = next ? await claimBuild(db, builder.mode, next.trigger, next.requestedBy) : undefined;
        }
      })()
        .catch(logError)
        .finally(() => {
          current = undefined;
        });
      // Another process's build runs (no row claimed): this one is not started; the scheduled job
      // builds whatever changed once that one is done.
      return { queued: (await claimed) === undefined };
    },
    idle: async () => {
      while (current) await current;
    },
  };
}

/**
 * The state SQL: the last change, the newest build and the newest succeeded one. `ON` is the
 * condition the state is read under (the admin check of a route, or true).
 */
const stateSql = (on: string) => `
  LEFT JOIN site_changes c ON ${on} AND c.id = 1
  LEFT JOIN LATERAL (SELECT data_at, finished_at FROM site_builds
                      WHERE status = 'succeeded' ORDER BY id DESC LIMIT 1) ok ON c.id IS NOT NULL
  LEFT JOIN LATERAL (SELECT json_build_object('id', id, 'trigger', trigger, 'mode', mode, 'data_at', data_at,
                                              'started_at', started_at, 'finished_at', finished_at,
                                              'status', status, 'error', error) AS build
                       FROM site_builds WHERE c.id IS NOT NULL ORDER BY id DESC LIMIT 1) last ON true`;
const STATE_COLUMNS = `c.changed_at, ok.data_at IS NULL OR c.changed_at > ok.data_at AS needs_rebuild,
       last.build AS last_build, ok.finished_at AS last_succeeded_at`;

const stateRowSchema = z.object({
  changed_at: z.date(),
  needs_rebuild: z.boolean(),
  last_build: z.nullable(siteBuildSchema),
  last_succeeded_at: z.nullable(z.date()),
});

const toState = (row: unknown): SiteBuildState => {
  const state = stateRowSchema.parse(row);
  return {
    ...state,
    changed_at: state.changed_at.toISOString(),
    last_succeeded_at: state.last_succeeded_at?.toISOString() ?? null,
  };
};

/** The site's build state, for the scheduled job (no session). */
export async function readBuildState(db: Queryable): Promise<SiteBuildState> {
  const [row] = await db.query(`SELECT ${STATE_COLUMNS} FROM (SELECT 1) one ${stateSql('true')}`);
  return toState(row);
}

/** ONE round trip: the session's agent (401/403) and, for an admin, the build state. */
async function readBuildStateAsAdmin(db: Queryable, claims: Parameters<typeof sessionParams>[0]) {
  const [row] = await db.query<{ id: number; is_admin: boolean }>(
    `WITH ${sessionAgentCte(1)} SELECT me.id, me.is_admin, ${STATE_COLUMNS} FROM me ${stateSql('me.is_admin')}`,
    sessionParams(claims),
  );
  assertAdmin(row);
  return { adminId: row?.id ?? null, state: toState(row) };
}

/**
 * The scheduled job's step: starts a build when something changed after the last succeeded
 * build's data and nothing has changed for `debounceMs` (several saves in a row: one build), no
 * build is running, and the same data did not just fail to build (an admin retries that by hand).
 */
export async function rebuildWhenDue(
  db: Db,
  builds: SiteBuilds,
  { debounceMs, now = new Date() }: { debounceMs: number; now?: Date },
): Promise<'started' | 'queued' | 'up to date' | 'settling' | 'running' | 'failed before'> {
  const state = await readBuildState(db);
  if (!state.needs_rebuild) return 'up to date';
  const last = state.last_build;
  if (last?.status === 'running') return 'running';
  if (last?.status === 'failed' && new Date(last.data_at) >= new Date(state.changed_at)) return 'failed before';
  if (now.getTime() - new Date(state.changed_at).getTime() < debounceMs) return 'settling';
  const { queued } = await builds.request('auto', null);
  return queued ? 'queued' : 'started';
}

/** What the site-build routes are built from (src/app/api-groups.server.ts). */
export interface SiteBuildRoutesDeps {
  db: Db;
  builds: SiteBuilds | undefined;
  runAfterResponse: (task: Promise<unknown>) => void;
}

export const siteBuildApi = apiGroup(
  (deps: SiteBuildRoutesDeps) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/admin/site-build',
      access: 'admin',
      summary: "The static site's build state",
      tag: 'Admin',
      success: ok('The state', siteBuildResponseSchema),
      handler: async (c, { db }) => {
        const { state } = await readBuildStateAsAdmin(db, sessionOf(c));
        return c.json({ success: true, ...state });
      },
    }),
    op({
      method: 'POST',
      path: '/api/admin/site-build',
      access: 'admin',
      summary: 'Rebuilds the static site now',
      tag: 'Admin',
      success: accepted('Queued', siteBuildStartedSchema),
      errors: [409],
      handler: async (c, { db, builds, runAfterResponse }) => {
        const { adminId } = await readBuildStateAsAdmin(db, sessionOf(c));
        if (!builds) throw new HttpError(409, SITE_BUILD_MESSAGES.cannotBuild);
        const { queued } = await builds.request('button', adminId);
        // On Netlify the function would be frozen after the answer: the hook's call is kept going.
        runAfterResponse(builds.idle());
        return c.json({ success: true, queued, ...(await readBuildState(db)) }, 202);
      },
    }),
  ],
);
