import type { Config } from '@netlify/functions';

/**
 * Daily: starts the market-data refresh. The work (a Zillow file of 100+ MB, the RESO feed) can
 * outlast a scheduled function's 30 s, so it runs in the background function beside this one.
 */
export default async (): Promise<Response> => {
  const site = process.env.URL;
  if (!site) throw new Error('URL is not set (Netlify sets it on deployed sites)');
  const response = await fetch(`${site}/.netlify/functions/refresh-market-data-background`, { method: 'POST' });
  console.info(`[refresh-market-data] background refresh started: ${response.status}`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '@daily' };
