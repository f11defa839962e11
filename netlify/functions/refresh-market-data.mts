import type { Config } from '@netlify/functions';
import { backgroundSecret, netlifyBackgroundStarter } from '../../src/platform/background-work.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { secretFrom } from '../../src/platform/secrets.ts';

/**
 * Daily: starts the market-data refresh. The work (a Zillow file of 100+ MB, the RESO feed) can
 * outlast a scheduled function's 30 s, so it runs in the background function beside this one,
 * started with the secret they share (src/platform/background-work.ts).
 */
export default async (): Promise<Response> => {
  const env = parseEnv();
  // Netlify sets URL on deployed sites and under `netlify dev`; `netlify functions:serve` does not.
  if (!env.URL) {
    console.error('[refresh-market-data] not started: URL is not set, so the background function has no address');
    return new Response(null, { status: 204 });
  }
  const start = netlifyBackgroundStarter(env.URL, backgroundSecret(secretFrom(env, 'SESSION_SECRET')));
  try {
    await start('scheduled-refresh');
    console.info('[refresh-market-data] background refresh started');
  } catch (error) {
    console.error('[refresh-market-data] the background refresh could not be started:', error);
  }
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '@daily' };
