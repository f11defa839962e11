// npm run bench:api — load on the hottest API calls, on a real PostgreSQL through the Neon
// driver, next to a bare node:http server measured in the same run. Each server runs in its own
// process so the load generator does not share its event loop. The signed-in calls are made as an
// agent with LEADS_OF_AGENT leads (scripts/bench/agent-leads.ts), an admin among 10 such agents.
// npm run bench:api -- --lead-towns measures the leads lists with and without their towns instead.
import autocannon from 'autocannon';
import { createApi } from '../src/app/app.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { SEARCH_NAME } from './bench/agent-leads.ts';
import { benchLeadTowns } from './bench/lead-towns.ts';
import { roundTripsOfChild } from './bench/children.ts';
import { NASSAU_DETAILS, quickEstimateBody } from './bench/estimate-bodies.ts';
import { startPostgresBench } from './bench/postgres-bench.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
/** Unmeasured load before each measurement: the child's JIT and its pool's connections warm up. */
const WARM_UP_S = 2;
const CONNECTIONS = 50;
const ROUND_TRIP_SAMPLES = 200;
const LEADS_OF_AGENT = 10_000;

const agent = featuredAgentFrom(parseEnv({}));

/** One call to load, and what it must meet. */
interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  /** A JSON body. */
  body?: string;
  /** Sent as the agent with LEADS_OF_AGENT leads, or as an admin (every agent's leads). */
  signedIn?: 'agent' | 'admin';
  /**
   * A public read the CDN keeps (docs/decisions/0020): measured here as the origin's miss, and
   * checked to carry Netlify-CDN-Cache-Control.
   */
  edge?: boolean;
  /** Budgets checked at the end. */
  budget: { trips?: number; p99Ms?: number; ratio?: number };
}

/** A signed-in dashboard GET with the budgets: one round trip, p99 under 50 ms. */
const dashboardGet = (name: string, path: string): Target => ({
  name,
  path,
  signedIn: 'agent',
  budget: { trips: 1, p99Ms: 50 },
});

/** A public read cached at the edge: one round trip when the CDN misses. */
const edgeGet = (name: string, path: string): Target => ({ name, path, edge: true, budget: { trips: 1 } });

const TARGETS: Target[] = [
  {
    name: 'POST /api/estimates',
    path: '/api/estimates',
    method: 'POST',
    body: quickEstimateBody(agent.slug),
    budget: { trips: 1, p99Ms: 50, ratio: 0.1 },
  },
  // Issue 12: the reverse solve on a detailed Nassau sheet, then the estimate stored with its sheet:
  // one read of the agent's settings and the fee table, then an INSERT shared by concurrent requests
  // (as the quick ones); about 0.1 ms of arithmetic, the rest is the two statements.
  {
    name: 'POST /api/estimates/reverse (detailed sheet)',
    path: '/api/estimates/reverse',
    method: 'POST',
    body: JSON.stringify({ agent_slug: agent.slug, target_net: '300,000', details: NASSAU_DETAILS }),
    budget: { trips: 2, p99Ms: 100 },
  },
  // The public reads kept at the edge (issue 13): what a CDN miss costs the function.
  edgeGet(`GET /api/agents/public/${agent.slug}`, `/api/agents/public/${agent.slug}`),
  edgeGet('GET /api/global/settings', '/api/global/settings'),
  edgeGet('GET /api/showcase/settings', '/api/showcase/settings'),
  edgeGet('GET /api/towns/huntington', '/api/towns/huntington'),
  edgeGet('GET /api/zillow/market?town=huntington', '/api/zillow/market?town=huntington'),
  edgeGet('GET /api/towns/huntington/sold', '/api/towns/huntington/sold'),
  edgeGet('GET /api/sold?town=huntington', '/api/sold?town=huntington'),
  dashboardGet('GET /api/leads (10k leads, page 1)', '/api/leads'),
  dashboardGet('GET /api/leads?search= (10k leads)', `/api/leads?search=${SEARCH_NAME.slice(0, 6).toLowerCase()}`),
  dashboardGet('GET /api/agents/me/overview (10k leads, 10k estimates)', '/api/agents/me/overview'),
  // Issue 11's budget: the site's newest activity among every agent's leads and estimates.
  {
    name: 'GET /api/admin/activity (admin; 100k leads, 100k estimates)',
    path: '/api/admin/activity',
    signedIn: 'admin',
    budget: { trips: 1, p99Ms: 100 },
  },
  // The admin's list of every agent's leads (issue 11's budget).
  {
    name: 'GET /api/admin/leads (100k leads, page 1)',
    path: '/api/admin/leads',
    signedIn: 'admin',
    budget: { trips: 1, p99Ms: 100 },
  },
];

interface Figures {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  requests: number;
}

async function warmUp(options: autocannon.Options): Promise<void> {
  await autocannon({ connections: CONNECTIONS, duration: WARM_UP_S, ...options });
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

const bench = await startPostgresBench(LEADS_OF_AGENT);
try {
  // The focused option: the leads lists' Source-filter towns, with and without (scripts/bench/lead-towns.ts).
  if (process.argv.includes('--lead-towns')) await benchLeadTowns(bench);
  else {
    const { db, auth, sessions: cookies } = bench;
    const headersOf = (target: Target): Record<string, string> => ({
      ...(target.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(target.signedIn === 'agent' ? { cookie: cookies.cookie } : {}),
      ...(target.signedIn === 'admin' ? { cookie: cookies.adminCookie } : {}),
    });

    // DB round trips per call, counted in-process on the same database.
    const app = createApi({ db, auth: auth.config });
    const tripsPerCall = new Map<Target, number>();
    const cachedAtEdge = new Set<Target>();
    for (const target of TARGETS) {
      const before = db.roundTrips;
      for (let index = 0; index < ROUND_TRIP_SAMPLES; index += 1) {
        const response = await app.request(target.path, {
          method: target.method ?? 'GET',
          headers: headersOf(target),
          body: target.body ?? null,
        });
        if (!response.ok) throw new Error(`warm-up call ${target.name} failed: ${response.status}`);
        if (response.headers.has('netlify-cdn-cache-control')) cachedAtEdge.add(target);
      }
      tripsPerCall.set(target, (db.roundTrips - before) / ROUND_TRIP_SAMPLES);
    }

    const api = await bench.startApi();
    const bare = await bench.startChild('scripts/bench/bare-server.ts');

    console.log(`Load: ${CONNECTIONS} connections, ${DURATION_S} s per target, PostgreSQL via the Neon driver.`);
    console.log(`Signed-in targets: an agent with ${LEADS_OF_AGENT.toLocaleString('en-US')} leads.`);
    console.log('trips/call: DB round trips of one call alone; under load: concurrent estimates share an INSERT.');
    console.log('The public GETs are cached by the CDN on Netlify: their rows are the function on a CDN miss.\n');
    await warmUp({ url: bare.url });
    const baseline = await load('bare node:http (fixed JSON)', { url: bare.url });
    const rows: (Figures & { target?: Target; trips: string; loaded: string })[] = [
      { ...baseline, trips: '-', loaded: '-' },
    ];
    for (const target of TARGETS) {
      const options: autocannon.Options = {
        url: `${api.url}${target.path}`,
        method: target.method ?? 'GET',
        headers: headersOf(target),
        ...(target.body === undefined ? {} : { body: target.body }),
      };
      await warmUp(options);
      const before = await roundTripsOfChild(api.child);
      const figures = await load(target.name, options);
      const after = await roundTripsOfChild(api.child);
      rows.push({
        ...figures,
        target,
        trips: (tripsPerCall.get(target) ?? NaN).toFixed(2),
        loaded: ((after - before) / figures.requests).toFixed(3),
      });
    }

    const width = Math.max(...rows.map((row) => row.name.length));
    console.log(
      [
        'target'.padEnd(width),
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
          row.name.padEnd(width),
          row.requestsPerSecond.toFixed(0).padStart(9),
          String(row.p99Ms).padStart(8),
          (row.requestsPerSecond / baseline.requestsPerSecond).toFixed(3).padStart(7),
          row.trips.padStart(11),
          row.loaded.padStart(11),
          String(row.errors).padStart(7),
        ].join(' '),
      );
    }

    const budgets: [string, boolean][] = [];
    for (const row of rows) {
      const { target } = row;
      if (!target) continue;
      const { trips, p99Ms, ratio } = target.budget;
      if (trips !== undefined) {
        budgets.push([`${target.name} makes exactly ${trips} DB round trip`, tripsPerCall.get(target) === trips]);
      }
      if (p99Ms !== undefined) budgets.push([`${target.name} p99 < ${p99Ms} ms`, row.p99Ms < p99Ms]);
      if (target.edge) budgets.push([`${target.name} is cached at the edge`, cachedAtEdge.has(target)]);
      if (ratio !== undefined) {
        budgets.push([
          `${target.name} reaches >= ${ratio.toFixed(2)} of the bare server`,
          row.requestsPerSecond >= ratio * baseline.requestsPerSecond,
        ]);
      }
    }
    budgets.push(['no errors under load', rows.every((row) => row.errors === 0)]);
    console.log('');
    for (const [label, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
    process.exitCode = budgets.every(([, ok]) => ok) ? 0 : 1;
  }
} finally {
  await bench.stop();
}
