// npm run dev: Astro's dev server (hot reload) on PORT, with the API on PORT+1 behind its /api proxy.
import { spawn } from 'node:child_process';
import { createApi } from '../src/server/app.ts';
import { appDepsFrom } from '../src/server/compose.ts';
import { openDatabase } from '../src/server/database.ts';
import { isProduction, parseEnv } from '../src/server/env.ts';
import { featuredAgentFrom } from '../src/server/featured-agent.ts';
import { listen } from '../src/server/local-server.ts';
import { migrate } from '../src/server/migrate.ts';
import { seed } from '../src/server/seed.ts';

const env = parseEnv();
const db = await openDatabase(env);
await migrate(db);
await seed(db, featuredAgentFrom(env), { demo: !isProduction(env), adminEmails: env.ADMIN_EMAILS });
const api = await listen(createApi(appDepsFrom(env, db)), env.PORT + 1);
console.log(`API at ${api.url} (database: ${db.kind})`);

const astro = spawn('npx', ['astro', 'dev', '--port', String(env.PORT)], {
  stdio: 'inherit',
  env: { ...process.env, API_PROXY_TARGET: api.url },
});
astro.on('exit', (code) => {
  api.server.close();
  void db.close().then(() => process.exit(code ?? 0));
});
