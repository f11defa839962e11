// npm run bench:api -- --lead-towns: what the leads lists' Source-filter towns cost. Each page of
// GET /api/leads and /api/admin/leads also answers the towns the scope's town-page leads came from
// (`towns` of matchingCte in src/features/leads/public/lead-list.server.ts). Here the same one-statement
// page is read with the towns found by a loose index scan (as the lists do), by a DISTINCT over
// every town-page lead (as they did before, rebuilt here) and without them (readPage's `towns`
// option), in turns, on the bench's 100,000 leads, a quarter of them from town pages.
import { readPage, matchingCte } from '../../src/features/leads/public/lead-list.server.ts';
import { adminLeadFilterSchema } from '../../src/features/leads/public/lead-list.ts';
import { readSession, SESSION_COOKIE, type SessionClaims } from '../../src/features/auth/public/sessions.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import type { PostgresBench } from './postgres-bench.ts';

const CONCURRENCY = 10;
/** Each variant is measured in ROUNDS turns of TURN_MS, alternating, so drift hits both alike. */
const ROUNDS = 3;
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 4000);
/** One lead in TOWN_EVERY came from a town page (spread over every town). */
const TOWN_EVERY = 4;

interface Variant {
  name: string;
  read: () => Promise<unknown>;
}

interface Measured {
  name: string;
  calls: number;
  perSecond: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** CONCURRENCY callers of `read` for `ms`: the latency of every call. */
async function turn(read: () => Promise<unknown>, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await read();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function measure(variants: readonly Variant[]): Promise<Measured[]> {
  const latencies = new Map<Variant, number[]>(variants.map((variant) => [variant, []]));
  for (const variant of variants) await turn(variant.read, 1000); // warm-up: plans, pool, caches
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const variant of variants) latencies.get(variant)?.push(...(await turn(variant.read, TURN_MS)));
  }
  return variants.map((variant) => {
    const all = (latencies.get(variant) ?? []).sort((a, b) => a - b);
    return {
      name: variant.name,
      calls: all.length,
      perSecond: all.length / ((ROUNDS * TURN_MS) / 1000),
      meanMs: all.reduce((sum, ms) => sum + ms, 0) / all.length,
      p50Ms: quantile(all, 0.5),
      p99Ms: quantile(all, 0.99),
    };
  });
}

/** The towns as they were read before (a DISTINCT over the scope's town-page leads), from the same conditions. */
function distinctTowns(looseScan: string): string {
  const where = /WHERE ([\s\S]+?) AND l\.origin = 'town'/.exec(looseScan)?.[1];
  if (!where) throw new Error('bench: the towns query has no conditions to reuse');
  return `(SELECT coalesce(array_agg(DISTINCT l.page_town), '{}') FROM leads l WHERE ${where} AND l.origin = 'town')`;
}

async function claimsOf(bench: PostgresBench, cookie: string): Promise<SessionClaims> {
  const claims = await readSession(bench.auth.config, cookie.slice(`${SESSION_COOKIE}=`.length));
  if (!claims) throw new Error('bench: a session cookie did not verify');
  return claims;
}

export async function benchLeadTowns(bench: PostgresBench): Promise<void> {
  const { db } = bench;
  const slugs = allTowns().map((town) => town.slug);
  await db.query(
    `UPDATE leads SET page_path = '/long-island-real-estate/' || ($1::text[])[1 + (id / $2) % cardinality($1::text[])]
      WHERE id % $2 = 0`,
    [slugs, TOWN_EVERY],
  );
  await db.exec('VACUUM ANALYZE leads');
  const [counts] = await db.query<{ leads: number; town: number; towns: number }>(
    `SELECT count(*)::int AS leads, count(*) FILTER (WHERE origin = 'town')::int AS town,
            count(DISTINCT page_town) FILTER (WHERE origin = 'town')::int AS towns FROM leads`,
  );
  const admin = await claimsOf(bench, bench.sessions.adminCookie);
  const agent = await claimsOf(bench, bench.sessions.cookie);
  const none = adminLeadFilterSchema.parse({});
  const page = { limit: 20, offset: 0, total: true };
  const scopes = [
    { label: 'admin, every agent’s leads', scope: 'all' as const, claims: admin },
    { label: 'an agent’s own leads', scope: 'own' as const, claims: agent },
  ];
  console.log(
    `Leads: ${counts?.leads.toLocaleString('en-US')}, ${counts?.town.toLocaleString('en-US')} from ${counts?.towns} town pages.`,
  );
  console.log(
    `${CONCURRENCY} concurrent callers, ${ROUNDS} alternating turns of ${TURN_MS} ms per variant, page 1 (20 leads and the total).\n`,
  );
  const rows: Measured[] = [];
  for (const { label, scope, claims } of scopes) {
    const matching = matchingCte(none, scope, 1, claims);
    const read =
      (towns: boolean, expression = matching.towns) =>
      () =>
        readPage(db, { ...matching, towns: expression }, { ...page, towns });
    const distinct = distinctTowns(matching.towns);
    // Both ways find the same towns.
    const [found, before] = [(await read(true)()).head.towns, (await read(true, distinct)()).head.towns];
    if (found.join() !== [...before].sort().join() || found.length !== counts?.towns) {
      throw new Error(`bench: the towns differ: ${found.length} by the loose scan, ${before.length} by DISTINCT`);
    }
    const [loose, old, without] = await measure([
      { name: `${label}: towns by the loose index scan`, read: read(true) },
      { name: `${label}: towns by DISTINCT (before)`, read: read(true, distinct) },
      { name: `${label}: without the towns`, read: read(false) },
    ]);
    if (!loose || !old || !without) continue;
    rows.push(loose, old, without);
    const cost = (variant: Measured) =>
      `${((variant.meanMs / without.meanMs - 1) * 100).toFixed(1)} % of mean latency ` +
      `(${variant.meanMs.toFixed(2)} / ${without.meanMs.toFixed(2)} ms = ${(variant.meanMs / without.meanMs).toFixed(3)}; ` +
      `throughput ${(variant.perSecond / without.perSecond).toFixed(3)} of without)`;
    console.log(`${label}: the towns by DISTINCT cost ${cost(old)}`);
    console.log(`${label}: the towns by the loose index scan cost ${cost(loose)}`);
  }
  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(
    `\n${'variant'.padEnd(width)} ${'calls/s'.padStart(8)} ${'mean ms'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`,
  );
  for (const row of rows) {
    console.log(
      [
        row.name.padEnd(width),
        row.perSecond.toFixed(0).padStart(8),
        row.meanMs.toFixed(2).padStart(8),
        row.p50Ms.toFixed(2).padStart(7),
        row.p99Ms.toFixed(2).padStart(7),
      ].join(' '),
    );
  }
}
