import type { Config } from '@netlify/functions';
import { handle } from 'hono/netlify';
import { createApi } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';

// Parsed once per instance: production refuses to start without what it needs.
const env = parseEnv();
const db = await openDatabase(env);

export default handle(createApi({ db }));

export const config: Config = { path: '/api/*' };
