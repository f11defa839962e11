// npm run bench:data — the ZHVI import on files of the real layout at two sizes (~50 MB and over
// 200 MB): throughput (MB/s) and memory (RSS: baseline before the import, peak during it, growth).
// Budgets of issue 5: peak RSS under 200 MB whatever the file size, at least 20 MB/s.
//
// Each file is generated into a temporary directory (removed at the end) with the generator of the
// fake Zillow host (tests/fakes/zillow.ts): every town of the site (Saint James written "St. James"
// as Zillow does), a few malformed rows, and enough other US places to reach the size, ~300
// monthly columns each. Each import runs in a fresh child process, reading the file as a stream:
// - on a fresh in-memory PGlite (migrated and seeded), the embedded default;
// - on a fresh database of a real PostgreSQL server through the Neon driver (the production shape:
//   the database is not inside the importing process).
// RSS is sampled every 50 ms, and the kernel's exact high-water mark (VmHWM, reset just before the
// import) is read too where Linux offers it.
//
// MB here is 10^6 bytes, for file sizes, throughput and RSS alike.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { importZhvi } from '../src/features/market/zhvi.server.ts';
import { allTowns } from '../src/features/towns/public/town-data.ts';
import { openNeon, type Db } from '../src/platform/db.ts';
import { openPglite } from '../src/platform/pglite.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { seed } from '../src/app/seed.ts';
import { zhviCsv, type FakePlace, type ZhviCsvOptions } from '../tests/fakes/zillow.ts';
import { start as startPostgres, type RunningPostgres } from '../tests/support/postgres.ts';
import { startWsProxy, type RunningWsProxy } from '../tests/support/ws-proxy.ts';

const MB = 1_000_000;
const PEAK_BUDGET_MB = 200;
const THROUGHPUT_BUDGET_MB_S = 20;
const MALFORMED_ROWS = 12;
const MONTHS = 309; // 2000-01 to 2025-09, as in Zillow's file in late 2025
const BACKENDS = ['pglite', 'postgres'] as const;
type Backend = (typeof BACKENDS)[number];
const SIZES = [
  { label: 'small', bytes: 50 * MB },
  { label: 'large', bytes: 205 * MB },
];

const resultSchema = z.object({
  fileBytes: z.number(),
  seconds: z.number(),
  baselineRss: z.number(),
  peakRssSampled: z.number(),
  /** Peak RSS from /proc/self/status (VmHWM) after a reset just before the import; null if unavailable. */
  peakRssKernel: z.number().nullable(),
  samples: z.number(),
  heapUsedAfter: z.number(),
  rowsRead: z.number(),
  rowsSkipped: z.number(),
  townsMatched: z.number(),
  townsUpdated: z.number(),
  unmatchedTowns: z.array(z.string()),
  storedTowns: z.number(),
});
type Result = z.infer<typeof resultSchema>;

const places: FakePlace[] = allTowns().map((town) => ({
  name: town.name === 'Saint James' ? 'St. James' : town.name,
  county: town.county,
}));

/** Writes a generated file of at least `bytes` bytes; returns its size. */
async function generate(path: string, bytes: number): Promise<number> {
  const base: ZhviCsvOptions = { towns: places, months: MONTHS, malformedRows: MALFORMED_ROWS };
  // Measure the average row on a sample, then ask for enough rows to pass the target.
  const sample = [...zhviCsv({ ...base, towns: [], malformedRows: 0, extraRows: 400, seed: 7 })];
  const header = sample[0]?.length ?? 0;
  const perRow = (sample.join('').length - header) / (sample.length - 1);
  const extraRows = Math.ceil(((bytes - header) / perRow) * 1.01) - places.length - MALFORMED_ROWS;
  const out = createWriteStream(path);
  let batch = '';
  for (const line of zhviCsv({ ...base, extraRows })) {
    batch += line;
    if (batch.length >= 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
  return statSync(path).size;
}

function kernelPeakRss(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * In the child: one import of `path` into a fresh database: in-memory PGlite, or the PostgreSQL
 * database of BENCH_DATABASE_URL through the WebSocket proxy of BENCH_WS_PROXY.
 */
async function runImport(backend: Backend, path: string): Promise<Result> {
  let db: Db;
  if (backend === 'pglite') {
    db = await openPglite(undefined);
  } else {
    const url = process.env.BENCH_DATABASE_URL;
    const wsProxy = process.env.BENCH_WS_PROXY;
    if (!url || !wsProxy) throw new Error('BENCH_DATABASE_URL and BENCH_WS_PROXY are needed');
    db = openNeon(url, { wsProxy });
  }
  await migrate(db);
  await seed(db, featuredAgentFrom(parseEnv({})));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const baselineRss = process.memoryUsage().rss;
  let kernelReset = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS (Linux >= 4.0)
    kernelReset = true;
  } catch {
    // not Linux, or not allowed: only the sampled peak is reported
  }
  let peak = baselineRss;
  let samples = 0;
  const sample = () => {
    samples += 1;
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 50);
  const started = performance.now();
  const report = await importZhvi(db, createReadStream(path), { originLabel: path });
  const seconds = (performance.now() - started) / 1000;
  sample();
  clearInterval(sampler);
  const [stored] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM town_market_data');
  await db.close();
  return {
    fileBytes: statSync(path).size,
    seconds,
    baselineRss,
    peakRssSampled: peak,
    peakRssKernel: kernelReset ? kernelPeakRss() : null,
    samples,
    heapUsedAfter: process.memoryUsage().heapUsed,
    rowsRead: report.rowsRead,
    rowsSkipped: report.rowsSkipped,
    townsMatched: report.townsMatched,
    townsUpdated: report.townsUpdated,
    unmatchedTowns: report.unmatchedTowns,
    storedTowns: stored?.n ?? 0,
  };
}

/** In the parent: the child's result for one file. */
function importInChild(backend: Backend, path: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', backend, path], {
      execArgv: process.execArgv,
      env: { ...process.env, ...env },
    });
    let result: Result | undefined;
    child.on('message', (message) => {
      result = resultSchema.parse(message);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`the import child exited with code ${code}`));
    });
  });
}

const mb = (bytes: number) => (bytes / MB).toFixed(1);
const peakOf = (r: Result) => Math.max(r.peakRssSampled, r.peakRssKernel ?? 0);

interface Run {
  backend: Backend;
  label: string;
  result: Result;
}

/** A fresh database on the PostgreSQL server for one run; dropped afterwards. */
async function withPostgresDatabase<T>(
  postgres: RunningPostgres,
  proxy: RunningWsProxy,
  name: string,
  work: (url: string) => Promise<T>,
): Promise<T> {
  const admin = openNeon(postgres.connectionString, { wsProxy: proxy.address });
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(postgres.connectionString);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  let postgres: RunningPostgres | undefined;
  let proxy: RunningWsProxy | undefined;
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130); // the PostgreSQL server stops on exit (tests/support/postgres.ts)
  });
  const runs: Run[] = [];
  try {
    postgres = await startPostgres();
    proxy = await startWsProxy();
    for (const size of SIZES) {
      const path = join(dir, `City_zhvi_${size.label}.csv`);
      const started = performance.now();
      const bytes = await generate(path, size.bytes);
      console.log(
        `generated ${mb(bytes)} MB (${size.label}) in ${((performance.now() - started) / 1000).toFixed(1)} s: ${path}`,
      );
      runs.push({ backend: 'pglite', label: size.label, result: await importInChild('pglite', path) });
      const { address } = proxy;
      const result = await withPostgresDatabase(postgres, proxy, `bench_data_${size.label}_${process.pid}`, (url) =>
        importInChild('postgres', path, { BENCH_DATABASE_URL: url, BENCH_WS_PROXY: address }),
      );
      runs.push({ backend: 'postgres', label: size.label, result });
      rmSync(path);
    }
  } finally {
    cleanUp();
    await proxy?.stop();
    await postgres?.stop();
  }

  console.log('');
  console.log(
    'database  file MB  rows    skipped towns   s      MB/s    baseline RSS  peak RSS (sampled / kernel)  growth',
  );
  for (const { backend, result: r } of runs) {
    console.log(
      [
        backend.padEnd(9),
        mb(r.fileBytes).padEnd(8),
        String(r.rowsRead).padEnd(7),
        String(r.rowsSkipped).padEnd(7),
        `${r.townsUpdated}/${r.townsMatched}`.padEnd(7),
        r.seconds.toFixed(2).padEnd(6),
        (r.fileBytes / MB / r.seconds).toFixed(1).padEnd(7),
        `${mb(r.baselineRss)} MB`.padEnd(13),
        `${mb(r.peakRssSampled)} / ${r.peakRssKernel === null ? 'n/a' : mb(r.peakRssKernel)} MB`.padEnd(28),
        `+${mb(peakOf(r) - r.baselineRss)} MB`,
      ].join(' '),
    );
  }
  console.log(`
RSS is the whole importing process. Its baseline (before the first byte is read) is Node, tsx, the
modules and the open database; on PGlite that includes the embedded Postgres itself (WebAssembly
memory), which alone is well over 200 MB. Judged: the absolute peak where the database is outside
the process (postgres: production shape), and the growth over the baseline on PGlite. The absolute
PGlite peak is reported, not judged: the importer cannot make the embedded database smaller.`);

  let failed = false;
  const check = (pass: boolean, text: string, judged = true) => {
    console.log(`${pass ? 'PASS' : 'FAIL'} ${text}${judged ? '' : ' (reported, not judged)'}`);
    if (!pass && judged) failed = true;
  };
  for (const { backend, label, result: r } of runs) {
    const rate = r.fileBytes / MB / r.seconds;
    const size = `${backend}, ${mb(r.fileBytes)} MB file (${label})`;
    const growth = peakOf(r) - r.baselineRss;
    check(
      r.storedTowns === allTowns().length && r.unmatchedTowns.length === 0,
      `${size}: all ${allTowns().length} towns stored`,
    );
    check(r.rowsSkipped === MALFORMED_ROWS, `${size}: ${r.rowsSkipped} of ${MALFORMED_ROWS} malformed rows skipped`);
    check(
      peakOf(r) < PEAK_BUDGET_MB * MB,
      `${size}: peak RSS ${mb(peakOf(r))} MB < ${PEAK_BUDGET_MB} MB (absolute)`,
      backend === 'postgres',
    );
    check(
      growth < PEAK_BUDGET_MB * MB,
      `${size}: peak RSS growth over baseline +${mb(growth)} MB < ${PEAK_BUDGET_MB} MB`,
      backend === 'pglite',
    );
    check(rate >= THROUGHPUT_BUDGET_MB_S, `${size}: ${rate.toFixed(1)} MB/s >= ${THROUGHPUT_BUDGET_MB_S} MB/s`);
  }
  for (const backend of BACKENDS) {
    const [small, large] = runs.filter((run) => run.backend === backend).map((run) => run.result);
    if (!small || !large) continue;
    const growth = (r: Result) => peakOf(r) - r.baselineRss;
    check(
      growth(large) < growth(small) + 25 * MB,
      `${backend}: memory does not grow with the file: growth +${mb(growth(small))} MB -> +${mb(growth(large))} MB ` +
        `for a ${(large.fileBytes / small.fileBytes).toFixed(1)}x larger file (allowed: +25 MB)`,
    );
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[2] === '--child') {
  const backend = z.enum(BACKENDS).parse(process.argv[3]);
  const path = process.argv[4];
  if (!path) throw new Error('--child needs a backend and a file');
  const result = await runImport(backend, path);
  process.send?.(result);
  process.disconnect?.();
} else {
  await main();
}
