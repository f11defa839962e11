/**
 * How background work is started, in one place (decision 0028). The market-data imports (an
 * uploaded file, Refresh now, the daily refresh) can take minutes: on Netlify they run in the
 * background function `refresh-market-data-background` (15 minutes), never in the `api` function
 * (60 s). The API and the scheduled function start it with a POST carrying a secret derived from
 * SESSION_SECRET, which the background function checks before it touches anything: nobody else can
 * start a 100 MB download and re-import. Locally (`npm start`, the tests) there is no Netlify: the
 * same job runs in-process, after the response, so everything behaves the same. The job itself is
 * background-job.ts; this module imports no feature, so the scheduled function stays small.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';

/** The background function's address on the site (netlify/functions/refresh-market-data-background.mts). */
export const BACKGROUND_FUNCTION_PATH = '/.netlify/functions/refresh-market-data-background';
/** The header carrying the shared secret. */
export const BACKGROUND_SECRET_HEADER = 'x-background-secret';

/**
 * What the background work is asked to do: `imports`, the runs the API queued (uploads, Refresh
 * now); `scheduled-refresh`, the daily refresh of every configured feed, then any queued runs.
 */
export const backgroundRequestSchema = z.object({ job: z.enum(['imports', 'scheduled-refresh']) });
export type BackgroundJob = z.infer<typeof backgroundRequestSchema>['job'];

/** Starts a job off the request: resolves once it is started (not done). */
export type StartBackgroundWork = (job: BackgroundJob) => Promise<void>;

/**
 * The secret the starters send: an HMAC of SESSION_SECRET (required in production) under a label
 * of its own, so no new variable is needed and the session key itself never travels.
 */
export const backgroundSecret = (sessionSecret: string): string =>
  createHmac('sha256', sessionSecret).update('market-data background work v1').digest('hex');

/** Whether `request` carries `expected`, compared in constant time. */
export function carriesBackgroundSecret(request: Request, expected: string): boolean {
  const given = Buffer.from(request.headers.get(BACKGROUND_SECRET_HEADER) ?? '', 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** On Netlify: a POST to the background function, which answers 202 at once and runs the job. */
export function netlifyBackgroundStarter(
  site: string,
  secret: string,
  fetcher: typeof fetch = fetch,
): StartBackgroundWork {
  const url = `${site.replace(/\/+$/, '')}${BACKGROUND_FUNCTION_PATH}`;
  return async (job) => {
    const response = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BACKGROUND_SECRET_HEADER]: secret },
      body: JSON.stringify({ job }),
    });
    await response.body?.cancel();
    if (response.status !== 202) throw new Error(`the background function answered ${response.status}`);
  };
}

/** Locally: the same job in this process, kept going after the response by `runAfterResponse`. */
export const inProcessBackgroundStarter =
  (
    run: (job: BackgroundJob) => Promise<unknown>,
    runAfterResponse: (task: Promise<unknown>) => void,
  ): StartBackgroundWork =>
  (job) => {
    runAfterResponse(run(job));
    return Promise.resolve();
  };
