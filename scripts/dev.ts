// npm run dev: Astro's dev server (hot reload) on PORT, with the API on PORT+1 behind its /api proxy,
// in one process so both use the one embedded database.
import { dev } from 'astro';
import { createApi } from '../src/app/app.ts';
import { appDepsFrom } from '../src/app/compose.ts';
import { openDatabase, shareDatabase } from '../src/platform/database.ts';
import { isProduction, parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { listen } from '../src/app/local-server.ts';
import { migrate } from '../src/platform/migrate.ts';
import { seed } from '../src/app/seed.ts';

const env = parseEnv();
const db = await openDatabase(env);
await migrate(db);
await seed(db, featuredAgentFrom(env), { demo: !isProduction(env), adminEmails: env.ADMIN_EMAILS });
shareDatabase(db);
const api = await listen(createApi(appDepsFrom(env, db)), env.PORT + 1);
console.log(`API at ${api.url} (database: ${db.kind})`);

// astro.config.mjs proxies /api to this address when it is set.
process.env.API_PROXY_TARGET = api.url;
const astro = await dev({ root: process.cwd(), server: { port: env.PORT } });

const stop = () => {
  void astro
    .stop()
    .then(() => {
      api.server.close();
      return db.close();
    })
    .then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
