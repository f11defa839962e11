import type { Config } from '@netlify/functions';
import { createApi } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';

// Parsed once per instance: production refuses to start without what it needs.
const env = parseEnv();
const db = await openDatabase(env);

const api = createApi({ db });

// Netlify Functions (v2) take a web Request and want a Response: exactly Hono's fetch.
export default (request: Request): Response | Promise<Response> => api.fetch(request);

export const config: Config = { path: '/api/*' };
