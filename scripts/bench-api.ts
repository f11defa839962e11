// npm run bench:api — load on the two hottest API calls, on a real PostgreSQL through the Neon
// driver, next to a bare node:http server measured in the same run. Each server runs in its own
// process so the load generator does not share its event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { z } from 'zod';
import { createApi } from '../src/server/app.ts';
import { openNeon } from '../src/server/db.ts';
import { parseEnv } from '../src/server/env.ts';
import { featuredAgentFrom } from '../src/server/featured-agent.ts';
import { migrate } from '../src/server/migrate.ts';
import { seed } from '../src/server/seed.ts';
import { start as startPostgres } from '../tests/support/postgres.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const ROUND_TRIP_SAMPLES = 200;

const agent = featuredAgentFrom(parseEnv({}));
const estimateBody = JSON.stringify({
  agent_slug: agent.slug,
  sale_price: '780,200',
  mortgage_payoff: 450000,
  recipient_name: 'Bench',
});

/** Starts a child that prints `LISTENING <address>`; resolves with that address. */
function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Database round trips the API child has made so far. */
function roundTripsOfChild(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message: unknown) => {
      resolve(z.object({ roundTrips: z.number() }).parse(message).roundTrips);
    });
    child.send('round-trips');
  });
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  requests: number;
}

async function load(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors,
    requests: result.requests.total,
  };
}

const postgres = await startPostgres();
const children: ChildProcess[] = [];
try {
  const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
  children.push(proxy.child);
  const db = openNeon(postgres.connectionString, { wsProxy: proxy.url });
  await migrate(db);
  await seed(db, agent);

  // DB round trips per call, counted in-process on the same database.
  const app = createApi({ db });
  const roundTripsOf = async (request: () => Response | Promise<Response>) => {
    const before = db.roundTrips;
    for (let index = 0; index < ROUND_TRIP_SAMPLES; index += 1) {
      const response = await request();
      if (!response.ok) throw new Error(`warm-up call failed: ${response.status}`);
    }
    return (db.roundTrips - before) / ROUND_TRIP_SAMPLES;
  };
  const estimateTrips = await roundTripsOf(() =>
    app.request('/api/estimates', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: estimateBody,
    }),
  );
  const agentTrips = await roundTripsOf(() => app.request(`/api/agents/public/${agent.slug}`));
  await db.close();

  const api = await startChild('scripts/bench/api-server.ts', {
    DATABASE_URL: postgres.connectionString,
    DATABASE_WS_PROXY: proxy.url,
  });
  const bare = await startChild('scripts/bench/bare-server.ts', {});
  children.push(api.child, bare.child);

  console.log(`Load: ${CONNECTIONS} connections, ${DURATION_S} s per target, PostgreSQL via the Neon driver.`);
  console.log('trips/call: DB round trips of one call alone; under load: concurrent estimates share an INSERT.\n');
  const baseline = await load('bare node:http (fixed JSON)', { url: bare.url });
  const tripsBeforeEstimates = await roundTripsOfChild(api.child);
  const estimates = await load('POST /api/estimates', {
    url: `${api.url}/api/estimates`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: estimateBody,
  });
  const tripsAfterEstimates = await roundTripsOfChild(api.child);
  const publicAgent = await load(`GET /api/agents/public/${agent.slug}`, {
    url: `${api.url}/api/agents/public/${agent.slug}`,
  });

  const tripsAfterAgent = await roundTripsOfChild(api.child);
  const underLoad = (trips: number, figures: Figures) => (trips / figures.requests).toFixed(3);
  const rows = [
    { ...baseline, trips: '-', loaded: '-' },
    {
      ...estimates,
      trips: estimateTrips.toFixed(2),
      loaded: underLoad(tripsAfterEstimates - tripsBeforeEstimates, estimates),
    },
    {
      ...publicAgent,
      trips: agentTrips.toFixed(2),
      loaded: underLoad(tripsAfterAgent - tripsAfterEstimates, publicAgent),
    },
  ];
  console.log(
    [
      'target'.padEnd(34),
      'req/s'.padStart(9),
      'p99 ms'.padStart(8),
      'ratio'.padStart(7),
      'trips/call'.padStart(11),
      'under load'.padStart(11),
      'errors'.padStart(7),
    ].join(' '),
  );
  for (const row of rows) {
    console.log(
      [
        row.name.padEnd(34),
        row.requestsPerSecond.toFixed(0).padStart(9),
        String(row.p99Ms).padStart(8),
        (row.requestsPerSecond / baseline.requestsPerSecond).toFixed(3).padStart(7),
        row.trips.padStart(11),
        row.loaded.padStart(11),
        String(row.errors).padStart(7),
      ].join(' '),
    );
  }

  const budgets = [
    ['POST /api/estimates makes exactly 1 DB round trip', estimateTrips === 1],
    ['GET /api/agents/public/{slug} makes exactly 1 DB round trip', agentTrips === 1],
    [
      'POST /api/estimates reaches >= 0.10 of the bare server',
      estimates.requestsPerSecond >= 0.1 * baseline.requestsPerSecond,
    ],
    ['POST /api/estimates p99 < 50 ms', estimates.p99Ms < 50],
    ['no errors under load', estimates.errors === 0 && publicAgent.errors === 0],
  ] as const;
  console.log('');
  for (const [label, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  process.exitCode = budgets.every(([, ok]) => ok) ? 0 : 1;
} finally {
  for (const child of children) child.kill();
  await postgres.stop();
}
