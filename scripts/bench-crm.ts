// npm run bench:crm — agent-page leads (POST /api/leads) of an agent connected to Follow Up Boss,
// at 50 connections on a real PostgreSQL through the Neon driver, twice: with the fake FUB answering
// in 50 ms, then with it down (503). Then FUB comes back, the scheduled sync runs until nothing is
// due, and the run checks that leads stored = leads answered 201 and FUB accepted each lead exactly
// once. A bare node:http server measured in the same run is the baseline.
import autocannon from 'autocannon';
import { syncDue } from '../src/features/crm/public/crm-sync.server.ts';
import { FUB_API_KEY_CONTEXT } from '../src/features/crm/public/crm-sync.server.ts';
import { fubClient } from '../src/features/crm/fub-client.server.ts';
import { openNeon } from '../src/platform/db.ts';
import { encrypt } from '../src/platform/encryption.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { seed } from '../src/app/seed.ts';
import * as z from 'zod';
import { start as startPostgres } from '../tests/support/postgres.ts';
import { benchAuth } from './bench/agent-leads.ts';
import { roundTripsOfChild, startChild, type ChildProcessLike } from './bench/children.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const ENCRYPTION_KEY = 'bench-crm-encryption-key-0123456789abcdef';
const FUB_KEY = 'bench-crm-fub-key-0123456789';

/** The fake Follow Up Boss in its own process (not starved by the load generator), steered over HTTP. */
async function startFake() {
  const { child, url } = await startChild('tests/fakes/fub-server.ts', { FUB_FAKE_PORT: '0', FUB_FAKE_KEY: FUB_KEY });
  const control = async (action: string, body: unknown = {}) => {
    const response = await fetch(`${url}/__fake/${action}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`fake ${action}: ${response.status}`);
  };
  const events = async () =>
    z
      .object({ events: z.array(z.object({ status: z.number(), body: z.unknown() })) })
      .parse(await (await fetch(`${url}/__fake/events`)).json()).events;
  return { child, url, control, events };
}

/** The e-mail of an event's person. */
const emailOf = (body: unknown): string =>
  z.object({ person: z.object({ emails: z.array(z.object({ value: z.string() })) }) }).safeParse(body).data?.person
    .emails[0]?.value ?? '';

const postgres = await startPostgres();
const children: ChildProcessLike[] = [];
try {
  const fake = await startFake();
  children.push(fake.child);
  const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
  children.push(proxy.child);
  const db = openNeon(postgres.connectionString, { wsProxy: proxy.url });
  await migrate(db);
  const agent = featuredAgentFrom(parseEnv({}));
  const { agentId } = await seed(db, agent);
  await db.query(
    `INSERT INTO fub_integrations (agent_id, api_key_encrypted, api_key_masked, active) VALUES ($1, $2, '', false)`,
    [agentId, encrypt(FUB_KEY, ENCRYPTION_KEY, FUB_API_KEY_CONTEXT)],
  );
  const [estimate] = await db.query<{ uuid: string }>(
    `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                            transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents)
     VALUES ($1, 78020000, 45000000, 6, 4, 75000, 17500) RETURNING uuid`,
    [agentId],
  );

  const api = await startChild('scripts/bench/api-server.ts', {
    DATABASE_URL: postgres.connectionString,
    DATABASE_WS_PROXY: proxy.url,
    SESSION_SECRET: benchAuth().secret,
    ENCRYPTION_KEY,
    FUB_API_URL: fake.url,
    // Every lead of this run is the featured agent's: no notice cap in the way.
    LEAD_NOTICES_PER_HOUR: '100000000',
  });
  const bare = await startChild('scripts/bench/bare-server.ts', {});
  children.push(api.child, bare.child);

  /**
   * Each request a new visitor (numbered): a unique e-mail and phone, so neither the site nor FUB
   * takes two for one person.
   */
  let visitor = 0;
  const leadBody = (phase: string): string => {
    visitor += 1;
    return JSON.stringify({
      agent_id: agentId,
      first_name: 'Bench',
      last_name: 'Visitor',
      email: `${phase}.${visitor}@example.com`,
      phone: `631${String(visitor).padStart(7, '0')}`,
      consent_marketing: true,
      estimate_uuid: estimate?.uuid,
    });
  };

  const run = async (options: autocannon.Options) => {
    const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
    // Requests still in flight when the clock stops are answered and stored but not counted here.
    return {
      requests: result.requests.total,
      ok: result['2xx'],
      rps: result.requests.average,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    };
  };
  const leads = async (phase: string) => {
    const before = await roundTripsOfChild(api.child);
    const figures = await run({
      url: `${api.url}/api/leads`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: leadBody(phase) }) }],
    });
    const trips = ((await roundTripsOfChild(api.child)) - before) / figures.requests;
    return { ...figures, trips };
  };

  await run({ url: bare.url, duration: 2 });
  const baseline = await run({ url: bare.url });
  // Unmeasured: the API's JIT and its pool's connections warm up.
  await run({
    url: `${api.url}/api/leads`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    duration: 2,
    requests: [{ setupRequest: (request) => ({ ...request, body: leadBody('warm') }) }],
  });
  // The same leads of an agent without the integration: what the sync adds.
  const without = await leads('none');
  await db.query('UPDATE fub_integrations SET active = true WHERE agent_id = $1', [agentId]);
  await fake.control('trouble', { trouble: { kind: 'slow', ms: 50 }, times: null });
  const answering = await leads('up');
  await fake.control('reset');
  await fake.control('down', { status: 503 });
  const down = await leads('down');
  // Let the last answers of the down phase land before FUB is back.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await fake.control('up');

  // FUB is back: the scheduled sync until nothing is due (waits of the backoff skipped).
  const crm = { client: fubClient(fake.url), secret: ENCRYPTION_KEY };
  for (;;) {
    await db.query(`UPDATE crm_syncs SET next_attempt_at = now() WHERE status = 'queued'`);
    const report = await syncDue(db, crm, { limit: 200, budgetMs: 60_000 });
    if (report.synced + report.retrying + report.stopped + report.ignored + report.rejected === 0) break;
  }
  const [stored] = await db.query<{ leads: number; synced: number; jobs_waiting: number }>(
    `SELECT (SELECT count(*)::int FROM leads WHERE agent_id = $1 AND email LIKE 'down.%') AS leads,
            (SELECT count(*)::int FROM leads WHERE agent_id = $1 AND email LIKE 'down.%' AND synced_to_fub) AS synced,
            (SELECT count(*)::int FROM crm_syncs WHERE status <> 'synced') AS jobs_waiting`,
    [agentId],
  );
  // The down phase's leads only (a sync of the first phase cut short by the reset comes due too).
  const accepted = (await fake.events())
    .filter((event) => event.status === 200 || event.status === 201)
    .map((event) => emailOf(event.body))
    .filter((email) => email.startsWith('down.'));
  await db.close();

  console.log(`Load: ${CONNECTIONS} connections, ${DURATION_S} s per phase, PostgreSQL via the Neon driver.\n`);
  console.log(
    [
      'phase'.padEnd(44),
      'req/s'.padStart(8),
      'p99 ms'.padStart(8),
      'ratio'.padStart(7),
      'trips/lead'.padStart(11),
      'errors'.padStart(7),
    ].join(' '),
  );
  const line = (name: string, row: { rps: number; p99: number; errors: number }, trips: string) =>
    console.log(
      [
        name.padEnd(44),
        row.rps.toFixed(0).padStart(8),
        String(row.p99).padStart(8),
        (row.rps / baseline.rps).toFixed(3).padStart(7),
        trips.padStart(11),
        String(row.errors).padStart(7),
      ].join(' '),
    );
  line('bare node:http (fixed JSON)', baseline, '-');
  line('POST /api/leads, no integration', without, without.trips.toFixed(2));
  line('POST /api/leads, FUB answering in 50 ms', answering, answering.trips.toFixed(2));
  line('POST /api/leads, FUB down (503)', down, down.trips.toFixed(2));
  console.log('');
  const storedLeads = stored?.leads ?? 0;
  console.log(
    `While down: ${down.ok} leads answered 201 in time, ${storedLeads} stored (the rest were answered after the ` +
      `clock stopped); after recovery ${stored?.synced ?? 0} synced.`,
  );
  console.log(
    `FUB accepted ${accepted.length} events of the down phase for ${new Set(accepted).size} visitors; ` +
      `jobs not synced: ${stored?.jobs_waiting ?? 0}.`,
  );
  const checks: [string, boolean][] = [
    ['no errors under load', without.errors === 0 && answering.errors === 0 && down.errors === 0],
    [
      'every lead answered 201 while FUB was down is stored',
      storedLeads >= down.ok && storedLeads <= down.ok + CONNECTIONS,
    ],
    ['every stored lead synced once FUB is back', stored?.synced === storedLeads && stored.jobs_waiting === 0],
    ['FUB accepted each lead exactly once', accepted.length === storedLeads && new Set(accepted).size === storedLeads],
  ];
  for (const [label, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
} finally {
  for (const child of children) child.kill();
  await postgres.stop();
}
