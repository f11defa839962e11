// Serves the built site (dist/) and the API on one port, routed like production.
import { appDepsFrom } from '../src/server/compose.ts';
import { openDatabase } from '../src/server/database.ts';
import { parseEnv } from '../src/server/env.ts';
import { listen } from '../src/server/local-server.ts';
import { createSiteServer } from '../src/server/site-server.ts';

const env = parseEnv();
const db = await openDatabase(env);
const { server, url } = await listen(
  createSiteServer(appDepsFrom(env, db), 'dist'),
  env.PORT,
  process.env.HOST ?? '127.0.0.1',
);
console.log(`Site and API at ${url} (database: ${db.kind})`);

const stop = () => {
  server.close();
  void db.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
