// npm run bench:digest — one seller-updates run preparing 1,000 due updates, then one preparing
// 10,000, on PGlite and on a real PostgreSQL through the Neon driver (and its WebSocket proxy, in
// its own process): the time per update and the database round trips per batch of each, and the
// ratio of the times per update (10k / 1k), which must be about 1: the run's cost grows linearly.
// Each run checks it sent every due update once.
import { DEFAULT_BATCH, runSellerUpdates } from '../src/features/seller-updates/public/digest-run.server.ts';
import type { Db } from '../src/platform/db.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { seed } from '../src/app/seed.ts';
import { addSellers, onLongIsland, setSeries, townsOf, UPDATE_DEPS } from '../tests/support/seller-updates-data.ts';
import { onBothBackends } from './bench/both-backends.ts';

const SIZES = [1_000, 10_000] as const;
const RUN_DAY = '2026-12-15';

interface Figures {
  size: number;
  ms: number;
  msPerUpdate: number;
  batches: number;
  tripsPerBatch: number;
}

/** One run with `size` updates due, on a database where nothing else is due. */
async function runWith(db: Db, agentId: number, size: number, tag: string): Promise<Figures> {
  const [town] = await townsOf(db, 'Nassau', 1);
  await addSellers(db, {
    agentId,
    count: size,
    tag,
    townSlug: town?.slug ?? null,
    estimateAt: onLongIsland('2026-10-01', 10),
    // Due over the 30 days before the run, as confirmations spread them.
    firstDue: onLongIsland('2026-11-15', 8),
    spreadDays: 30,
  });
  const trips = db.roundTrips;
  const started = performance.now();
  const report = await runSellerUpdates(db, UPDATE_DEPS, { asOf: onLongIsland(RUN_DAY), budgetMs: 10 * 60_000 });
  const ms = performance.now() - started;
  if (report.sent !== size || report.due !== size) throw new Error(`${tag}: sent ${report.sent} of ${size}`);
  const batches = Math.ceil(size / DEFAULT_BATCH);
  // The run's own: the switches once, the market once, and per batch its read and its write.
  const tripsPerBatch = (db.roundTrips - trips - 2) / batches;
  // Sent once: leave nothing due for the next size.
  await db.query(`UPDATE seller_updates SET state = 'paused' WHERE state = 'subscribed'`);
  return { size, ms, msPerUpdate: ms / size, batches, tripsPerBatch };
}

async function bench(name: string, db: Db): Promise<void> {
  await migrate(db);
  const { agentId } = await seed(db, featuredAgentFrom(parseEnv({})));
  const [town] = await townsOf(db, 'Nassau', 1);
  if (!town) throw new Error('no Nassau town seeded');
  await setSeries(db, [{ slug: town.slug, base: 650_000, monthlyPercent: 0.6 }], RUN_DAY);
  // A warm-up, so neither size pays the first statement's planning and the JIT's start.
  await runWith(db, agentId, 200, `${name.toLowerCase()}-warm`);
  const figures: Figures[] = [];
  for (const size of SIZES) figures.push(await runWith(db, agentId, size, `${name.toLowerCase()}-${size}`));
  for (const { size, ms, msPerUpdate, batches, tripsPerBatch } of figures) {
    console.log(
      `${name.padEnd(10)} ${String(size).padStart(6)} updates: ${(ms / 1000).toFixed(2)} s, ` +
        `${msPerUpdate.toFixed(3)} ms per update, ${batches} batches, ${tripsPerBatch.toFixed(1)} round trips per batch`,
    );
  }
  const [small, large] = figures;
  if (small && large) {
    console.log(`${name.padEnd(10)} time per update, 10k / 1k: ${(large.msPerUpdate / small.msPerUpdate).toFixed(2)}`);
  }
}

await onBothBackends(bench);
