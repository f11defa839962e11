// Child process of bench-api and bench-load: the API alone on DATABASE_URL, printing its URL when
// listening. It answers its parent's "round-trips" message with the database round trips made so
// far, and "process" with its CPU time and event loop delay since the last "process" (was the
// process itself the bottleneck, or the database?).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApi } from '../../src/app/app.ts';
import { appDepsFrom } from '../../src/app/compose.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { listen } from '../../src/app/local-server.ts';

const env = parseEnv();
const db = await openDatabase(env);
const { url } = await listen(createApi(appDepsFrom(env, db)), 0);
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let cpuSince = process.cpuUsage();
let since = performance.now();
process.on('message', (message) => {
  if (message === 'round-trips') process.send?.({ roundTrips: db.roundTrips });
  if (message === 'process') {
    const cpu = process.cpuUsage(cpuSince);
    const now = performance.now();
    process.send?.({
      // Share of one core the process used.
      cpuShare: (cpu.user + cpu.system) / 1000 / (now - since),
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
    });
    delay.reset();
    cpuSince = process.cpuUsage();
    since = now;
  }
});
console.log(`LISTENING ${url}`);
