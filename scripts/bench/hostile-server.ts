// Child process of bench-hostile: the whole API on a fresh in-memory PGlite (migrated, demo accounts
// seeded) over HTTP on 127.0.0.1, printing its URL when listening. It answers "cpu" with the CPU
// time the process has used so far (every thread: the event loop, the workers, libvips's and
// libuv's threads). Self-contained, so the bench can run the same server from another checkout
// (main, for the before figures).
import { createApi } from '../../src/app/app.ts';
import { appDepsFrom } from '../../src/app/compose.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { featuredAgentFrom } from '../../src/platform/featured-agent.ts';
import { listen } from '../../src/app/local-server.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { openPglite } from '../../src/platform/pglite.ts';
import { seed } from '../../src/app/seed.ts';

const env = parseEnv({ ...process.env, DATABASE_URL: undefined });
const db = await openPglite(undefined);
await migrate(db);
await seed(db, featuredAgentFrom(env), { demo: true });
const { url } = await listen(createApi({ ...appDepsFrom(env, db), runAfterResponse: () => undefined }), 0);
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuMs: (user + system) / 1000 });
});
console.log(`LISTENING ${url}`);
