import type { APIRoute } from 'astro';
import { loadDataAt } from '../app/build-data.ts';

/**
 * dist/build.json: the time of the last change to the data this build includes. The server that
 * serves the build records it (scripts/serve.ts), so a fresh build does not show "needs rebuild".
 */
export const GET: APIRoute = async () => new Response(JSON.stringify({ data_at: await loadDataAt() }));
