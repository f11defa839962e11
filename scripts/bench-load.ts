// npm run bench:load — the site under a mix of its busiest calls at once (issue 13): quick and
// detailed estimates, leads (a new visitor each) and an agent's dashboard reads, at CONNECTIONS
// connections for DURATION_S seconds against a real PostgreSQL through the Neon driver, while the
// market data refresh runs in a loop on the same database. Each route is its own autocannon
// instance (its own latency histogram), all running at the same time; the bare node:http server of
// the same run at the same connections is the baseline. Afterwards it counts this run's leads in the
// database: every lead answered 201 must be stored. Exits non-zero on any socket error, timeout,
// non-2xx answer, lost lead or failed refresh.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import * as z from 'zod';
import { SEARCH_NAME } from './bench/agent-leads.ts';
import { askChild } from './bench/children.ts';
import { NASSAU_DETAILS, quickEstimateBody } from './bench/estimate-bodies.ts';
import { startPostgresBench } from './bench/postgres-bench.ts';

const DURATION_S = z.coerce.number().int().min(1).default(60).parse(process.env.BENCH_LOAD_DURATION);
/** At least one per route of the mix. */
const CONNECTIONS = z.coerce.number().int().min(7).default(200).parse(process.env.BENCH_LOAD_CONNECTIONS);
/** The bare server's run: its figures settle in seconds. */
const BARE_DURATION_S = Math.min(10, DURATION_S);
/** Unmeasured (but checked) load first: the API child's JIT and its pool's connections warm up. */
const WARM_UP_S = 5;
const LEADS_OF_AGENT = 10_000;
/** This run's visitors' e-mail domain: their leads are counted by it afterwards. */
const RUN_DOMAIN = `load-${randomBytes(4).toString('hex')}.example.com`;

/** One route of the mix: its share of the connections and the requests its connections send. */
interface MixRoute {
  name: string;
  share: number;
  options: Omit<autocannon.Options, 'url'> & { path: string };
}

/** `total` connections split by `shares`, each route at least one, the remainder to the first. */
function split(total: number, shares: readonly number[]): number[] {
  const sum = shares.reduce((a, b) => a + b, 0);
  const counts = shares.map((share) => Math.max(1, Math.floor((total * share) / sum)));
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (let index = 0; left > 0; index = (index + 1) % counts.length, left -= 1) {
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

const leadAnswer = z.object({ lead: z.object({ id: z.number() }) });

/** What a run of autocannon gives the table. */
const figuresOf = (result: autocannon.Result) => ({
  requests: result.requests.total,
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  max: result.latency.max,
  non2xx: result.non2xx,
  // autocannon's errors include its timeouts.
  errors: result.errors,
  timeouts: result.timeouts,
  statuses: result.statusCodeStats ?? {},
});
type Figures = ReturnType<typeof figuresOf>;

const machine = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;

const bench = await startPostgresBench(LEADS_OF_AGENT);
try {
  const { db, featured, sessions } = bench;
  const [estimate] = await db.query<{ uuid: string }>(
    `SELECT e.uuid FROM estimates e JOIN agents a ON a.id = e.agent_id WHERE a.slug = $1
      ORDER BY e.created_at DESC LIMIT 1`,
    [sessions.slug],
  );
  if (!estimate) throw new Error('bench: the agent has no estimate');
  const api = await bench.startApi();
  const bare = await bench.startChild('scripts/bench/bare-server.ts');
  const refresher = await bench.startWorker('scripts/bench/market-refresh.ts');

  // Each lead a new visitor of the agent with many leads: a unique e-mail under RUN_DOMAIN. The ids
  // answered 201 are kept, to be found in the database afterwards.
  let visitors = 0;
  const answeredIds: number[] = [];
  let answeredWithoutId = 0;
  const leadRequest: autocannon.Request = {
    setupRequest: (request) => {
      visitors += 1;
      return {
        ...request,
        body: JSON.stringify({
          agent_slug: sessions.slug,
          firstName: 'Load',
          lastName: 'Visitor',
          email: `visitor${visitors}@${RUN_DOMAIN}`,
          phone: `516${String(visitors % 10_000_000).padStart(7, '0')}`,
          source: 'calculator',
          consent_marketing: true,
        }),
      };
    },
    onResponse: (status, body) => {
      if (status !== 201) return;
      try {
        answeredIds.push(leadAnswer.parse(JSON.parse(body)).lead.id);
      } catch {
        answeredWithoutId += 1;
      }
    },
  };
  const json = { 'content-type': 'application/json' };
  const signedIn = { cookie: sessions.cookie };
  const mix: MixRoute[] = [
    {
      name: 'POST /api/estimates (quick)',
      share: 30,
      options: { path: '/api/estimates', method: 'POST', headers: json, body: quickEstimateBody(featured.slug) },
    },
    {
      name: 'POST /api/estimates (details)',
      share: 10,
      options: {
        path: '/api/estimates',
        method: 'POST',
        headers: json,
        body: JSON.stringify({ agent_slug: featured.slug, sale_price: '780,200', details: NASSAU_DETAILS }),
      },
    },
    {
      name: 'POST /api/leads (new visitor each)',
      share: 20,
      options: { path: '/api/leads', method: 'POST', headers: json, requests: [leadRequest] },
    },
    { name: 'GET /api/leads?page=2', share: 10, options: { path: '/api/leads?page=2&per_page=25', headers: signedIn } },
    {
      name: 'GET /api/leads?search=',
      share: 10,
      options: { path: `/api/leads?search=${SEARCH_NAME.slice(0, 6).toLowerCase()}`, headers: signedIn },
    },
    { name: 'GET /api/agents/me/overview', share: 10, options: { path: '/api/agents/me/overview', headers: signedIn } },
    {
      name: 'GET /api/estimates/{uuid}',
      share: 10,
      options: { path: `/api/estimates/${estimate.uuid}`, headers: signedIn },
    },
  ];
  const connections = split(
    CONNECTIONS,
    mix.map((route) => route.share),
  );
  /** Every route of the mix at once for `duration` seconds. */
  const runMix = (duration: number): Promise<Figures[]> =>
    Promise.all(
      mix.map(async ({ options: { path, ...options } }, index) =>
        figuresOf(
          await autocannon({ ...options, url: `${api.url}${path}`, connections: connections[index] ?? 1, duration }),
        ),
      ),
    );

  console.log(`Machine: ${machine()} before the load.`);
  await autocannon({ url: bare.url, connections: CONNECTIONS, duration: 2 });
  const baseline = figuresOf(await autocannon({ url: bare.url, connections: CONNECTIONS, duration: BARE_DURATION_S }));
  const warmUp = await runMix(WARM_UP_S);
  const leadsOfWarmUp = answeredIds.length + answeredWithoutId;
  const apiProcess = z.object({ cpuShare: z.number(), delayP99Ms: z.number(), delayMaxMs: z.number() });
  await askChild(api.child, 'process', apiProcess);
  await askChild(refresher, 'start', z.object({ started: z.literal(true) }));
  const measured = await runMix(DURATION_S);
  const apiDuringLoad = await askChild(api.child, 'process', apiProcess);
  const refreshes = await askChild(
    refresher,
    'stop',
    z.object({ completed: z.number(), failed: z.number(), changed: z.number(), errors: z.array(z.string()) }),
  );
  const after = machine();

  const marker = `%@${RUN_DOMAIN}`;
  const [stored] = await db.query<{ leads: number; lost: number; queued: number; sent: number }>(
    `SELECT (SELECT count(*)::int FROM leads WHERE email LIKE $1) AS leads,
            (SELECT count(*)::int FROM unnest($2::int[]) AS answered (id)
              WHERE NOT EXISTS (SELECT 1 FROM leads WHERE leads.id = answered.id AND leads.email LIKE $1)) AS lost,
            count(d.id)::int AS queued, (count(d.id) FILTER (WHERE d.status = 'sent'))::int AS sent
       FROM email_deliveries d JOIN leads l ON l.id = d.lead_id
      WHERE l.email LIKE $1`,
    [marker, answeredIds],
  );
  if (!stored) throw new Error('bench: no counts');

  console.log(
    `\nMix: ${CONNECTIONS} connections for ${DURATION_S} s (after ${WARM_UP_S} s of warm-up), split by route as below; ` +
      `PostgreSQL 15 via the Neon driver and the WebSocket proxy; the API in one process (one pool).`,
  );
  console.log(`Bare node:http server: ${CONNECTIONS} connections for ${BARE_DURATION_S} s in the same run.`);
  console.log(
    `Warm-up (not in the table): ${warmUp.reduce((sum, row) => sum + row.requests, 0)} requests, ` +
      `${leadsOfWarmUp} of them leads, slowest ${Math.max(...warmUp.map((row) => row.max))} ms.`,
  );
  console.log(
    `Signed-in reads: an agent with ${LEADS_OF_AGENT.toLocaleString('en-US')} leads, growing with this run's.`,
  );
  console.log(
    `API process during the load: ${(apiDuringLoad.cpuShare * 100).toFixed(0)} % of a core, event loop delay ` +
      `p99 ${apiDuringLoad.delayP99Ms.toFixed(0)} ms, max ${apiDuringLoad.delayMaxMs.toFixed(0)} ms.`,
  );
  console.log(`Machine: ${after} after the load.\n`);
  const header = [
    'route'.padEnd(36),
    'conns'.padStart(5),
    'requests'.padStart(9),
    'req/s'.padStart(7),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'max ms'.padStart(7),
    'non-2xx'.padStart(7),
    'errors (t/o)'.padStart(12),
    'p99 x bare'.padStart(10),
    'req/s / bare'.padStart(12),
  ];
  console.log(header.join(' '));
  const line = (name: string, conns: number, row: Figures) =>
    console.log(
      [
        name.padEnd(36),
        String(conns).padStart(5),
        String(row.requests).padStart(9),
        row.rps.toFixed(0).padStart(7),
        String(row.p50).padStart(7),
        String(row.p99).padStart(7),
        String(row.max).padStart(7),
        String(row.non2xx).padStart(7),
        `${row.errors} (${row.timeouts})`.padStart(12),
        (row.p99 / Math.max(1, baseline.p99)).toFixed(1).padStart(10),
        (row.rps / baseline.rps).toFixed(3).padStart(12),
      ].join(' '),
    );
  line('bare node:http (fixed JSON)', CONNECTIONS, baseline);
  mix.forEach((route, index) => {
    const row = measured[index];
    if (row) line(route.name, connections[index] ?? 0, row);
  });
  const total = measured.reduce((sum, row) => ({
    ...sum,
    requests: sum.requests + row.requests,
    rps: sum.rps + row.rps,
    p50: Math.max(sum.p50, row.p50),
    p99: Math.max(sum.p99, row.p99),
    max: Math.max(sum.max, row.max),
    non2xx: sum.non2xx + row.non2xx,
    errors: sum.errors + row.errors,
    timeouts: sum.timeouts + row.timeouts,
  }));
  line('all routes (latencies: the worst)', CONNECTIONS, total);

  // Which statuses, where any answer was not 2xx (warm-up included).
  const phases: [string, Figures[]][] = [
    ['warm-up', warmUp],
    ['load', measured],
  ];
  mix.forEach((route, index) => {
    for (const [phase, rows] of phases) {
      const row = rows[index];
      if (!row || (row.non2xx === 0 && row.errors === 0)) continue;
      const statuses = Object.entries(row.statuses)
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, { count = 0 }]) => `${status} x${count}`);
      console.log(`  ${route.name}, ${phase}: ${[...statuses, `${row.errors} socket errors`].join(', ')}`);
    }
  });

  const answered = answeredIds.length + answeredWithoutId;
  console.log(
    `\nleads answered 201: ${answered}; leads stored: ${stored.leads} (lost ${stored.lost}` +
      `${stored.leads > answered ? `; ${stored.leads - answered} more were in flight when the warm-up's or the load's clock stopped` : ''})`,
  );
  console.log(
    `e-mails queued for them: ${stored.queued} (${stored.sent} sent): new-lead notices to one agent address are ` +
      'capped an hour (lead-limits.server.ts); the leads beyond the cap are stored unannounced.',
  );
  console.log(
    `market refreshes completed during the load: ${refreshes.completed} (${refreshes.changed} changed data, ` +
      `${refreshes.failed} failed${refreshes.errors.length > 0 ? `: ${refreshes.errors.join('; ')}` : ''})`,
  );

  const all = [...warmUp, ...measured];
  const checks: [string, boolean][] = [
    ['no socket errors or timeouts (warm-up included)', all.every((row) => row.errors === 0)],
    ['every answer 2xx (warm-up included)', all.every((row) => row.non2xx === 0)],
    ['every lead answered 201 is stored', stored.lost === 0 && answeredWithoutId === 0],
    ['the market refresh completed during the load, never failing', refreshes.completed > 0 && refreshes.failed === 0],
  ];
  console.log('');
  for (const [label, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
} finally {
  await bench.stop();
}
