// npm run bench:coldstart [-- --build] [--runs N] — the cold start of the deployed `api` function
// (issue 20, decision 0026): the zip Netlify's own build makes (.netlify/functions/api.zip; built
// first with `netlify build --offline` when it is missing or --build is given), unzipped, then in a
// FRESH Node process each run: its module imported, then its default export called with a
// representative read (GET /api/global/settings), timed from the process's start
// (scripts/bench/coldstart-probe.ts). Baseline in the same run and measured the same way: a bare
// v2 function with no dependencies, bundled as Netlify's bundler bundles a function's own code.
// Runs alternate between the two, so the machine's load falls on both alike; medians of N (5).
//
// The function runs as in production: APP_ENV=production with its secrets set (test values), on a
// real PostgreSQL 15 (a throwaway server on a free loopback port) reached through the Neon driver
// and the WebSocket proxy, migrated and seeded by scripts/seed.ts as a production build seeds.
//
// Budgets: api.zip under 10 MB; cold start (process start to first answer) within 3x the bare
// bundle's. Prints every function zip's size too (scripts/netlify/zip-budget.ts). Exit 1 on FAIL.
//
// The CLI: tools/netlify/node_modules/.bin/netlify (npm install --prefix tools/netlify), or
// NETLIFY_CLI=<path>.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import * as z from 'zod';
import { startChild } from './bench/children.ts';
import { extractZip } from './netlify/zip-archive.ts';
import { checkFunctionZips, readFunctionZips, sizeTable, ZIPPED_BUDGETS } from './netlify/zip-budget.ts';
import { start as startPostgres } from '../tests/support/postgres.ts';

const FUNCTIONS_DIR = '.netlify/functions';
const API_ZIP = join(FUNCTIONS_DIR, 'api.zip');
const NETLIFY_CLI = process.env.NETLIFY_CLI ?? 'tools/netlify/node_modules/.bin/netlify';
const PROBE_SOURCE = 'scripts/bench/coldstart-probe.ts';
const READ_PATH = '/api/global/settings';
const COLD_START_RATIO_BUDGET = 3;

/** zip-it-and-ship-it's banner for ESM bundles (runtimes/node/utils/esm_cjs_compat.js), so the bare bundle matches. */
const CJS_SHIM = `
import {createRequire as ___nfyCreateRequire} from "module";
import {fileURLToPath as ___nfyFileURLToPath} from "url";
import {dirname as ___nfyPathDirname} from "path";
let __filename=___nfyFileURLToPath(import.meta.url);
let __dirname=___nfyPathDirname(___nfyFileURLToPath(import.meta.url));
let require=___nfyCreateRequire(import.meta.url);
`;

const BARE_FUNCTION = `export default async (request: Request): Promise<Response> =>
  Response.json({ path: new URL(request.url).pathname });
`;

const { values: options } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    // Writes a V8 CPU profile of each api cold start into this folder (open in Chrome's DevTools).
    profile: { type: 'string' },
    // Also times this module (a function bundle made another way), for experiments.
    compare: { type: 'string' },
  },
});
const RUNS = Number(options.runs);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 50) throw new Error('--runs must be a whole number from 1 to 50');

const probeResult = z.object({
  started: z.number(),
  imported: z.number(),
  answered: z.number(),
  status: z.number(),
  bytes: z.number(),
});
type Probe = z.infer<typeof probeResult>;

/** Runs a command to its end with our output; rejects unless it exits 0. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? 'a signal'}`)),
    );
  });
}

async function netlifyBuild(): Promise<void> {
  if (!existsSync(NETLIFY_CLI)) {
    throw new Error(`Netlify's CLI is not at ${NETLIFY_CLI}: npm install --prefix tools/netlify (or set NETLIFY_CLI)`);
  }
  console.log(`Building with Netlify's build (${NETLIFY_CLI} build --offline)…`);
  await run(NETLIFY_CLI, ['build', '--offline']);
}

/** The probe as plain JavaScript (see its header), written into `dir`. */
async function compileProbe(dir: string): Promise<string> {
  const out = join(dir, 'coldstart-probe.mjs');
  await build({
    entryPoints: [PROBE_SOURCE],
    outfile: out,
    format: 'esm',
    platform: 'node',
    target: ['node22'],
    logLevel: 'error',
  });
  return out;
}

/** The bare function, bundled as zip-it-and-ship-it bundles a v2 function's own code (bundlers/nft/transformer.js). */
async function bareBundle(dir: string): Promise<string> {
  const source = join(dir, 'netlify/functions/bare.mts');
  const out = join(dir, 'netlify/functions/bare.mjs');
  await mkdir(join(dir, 'netlify/functions'), { recursive: true });
  await writeFile(source, BARE_FUNCTION);
  await build({
    entryPoints: [source],
    outfile: out,
    bundle: true,
    packages: 'external',
    banner: { js: CJS_SHIM },
    format: 'esm',
    platform: 'node',
    target: ['node22'],
    logLevel: 'error',
  });
  return out;
}

/**
 * The function's own module in the unzipped bundle: at the top for a function we bundle
 * (scripts/build-functions.ts: `api.mjs` beside its `chunks/`), `netlify/functions/<name>.mjs` under
 * the zip's base for one Netlify's bundler made.
 */
async function functionModule(dir: string, name: string): Promise<string> {
  const wanted = `${name}.mjs`;
  const queue = [dir];
  for (let seen = 0; queue.length > 0 && seen < 10_000; seen += 1) {
    const current = queue.shift() ?? dir;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) queue.push(path);
      else if (entry.name === wanted) return path;
    }
  }
  throw new Error(`no ${wanted} in the unzipped ${name}.zip`);
}

/** One cold start: a fresh `node` (the one running us, with no loader) importing `file`. */
function probe(
  probeFile: string,
  file: string,
  url: string,
  env: NodeJS.ProcessEnv,
  nodeOptions: readonly string[] = [],
): Promise<Probe> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, probeFile, file, url], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      const parsed = probeResult.safeParse(line.startsWith('{') ? JSON.parse(line) : undefined);
      if (code === 0 && parsed.success) resolvePromise(parsed.data);
      else reject(new Error(`the probe of ${file} failed (exit ${code ?? 'signal'}):\n${out}${err}`));
    });
  });
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const ms = (value: number): string => `${value.toFixed(0)} ms`.padStart(8);

function report(label: string, runs: readonly Probe[]): { total: number } {
  console.log(`\n${label}`);
  console.log('  run    import   1st answer     total   (ms since the process started: import began at)');
  runs.forEach((run, index) => {
    const importMs = run.imported - run.started;
    const answerMs = run.answered - run.imported;
    console.log(
      `  ${String(index + 1).padStart(3)}  ${ms(importMs)}  ${ms(answerMs)}  ${ms(run.answered)}   ${ms(run.started)}`,
    );
  });
  const total = median(runs.map((run) => run.answered));
  console.log(
    `  median ${ms(median(runs.map((run) => run.imported - run.started)))}  ${ms(median(runs.map((run) => run.answered - run.imported)))}  ${ms(total)}`,
  );
  return { total };
}

if (options.build || !existsSync(API_ZIP)) await netlifyBuild();
const zips = await readFunctionZips(FUNCTIONS_DIR);
console.log(`\nFunction zips (${FUNCTIONS_DIR}):\n${sizeTable(zips)}`);
const zipProblems = await checkFunctionZips(FUNCTIONS_DIR);
for (const problem of zipProblems) console.log(`  ✘ ${problem}`);

const work = await mkdtemp(join(tmpdir(), 'nts-coldstart-'));
const postgres = await startPostgres();
const children: { kill(): boolean }[] = [];
try {
  const apiDir = join(work, 'api');
  await extractZip(API_ZIP, apiDir);
  const apiModule = await functionModule(apiDir, 'api');
  const bareModule = await bareBundle(join(work, 'bare'));
  const probeFile = await compileProbe(work);

  const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
  children.push(proxy.child);
  const productionEnv = {
    PATH: process.env.PATH ?? '',
    APP_ENV: 'production',
    SESSION_SECRET: 'bench-coldstart-session-secret-0123456789abcdef',
    ENCRYPTION_KEY: 'bench-coldstart-encryption-key-0123456789abcdef',
    DATABASE_URL: postgres.connectionString,
    DATABASE_WS_PROXY: proxy.url,
    URL: 'http://127.0.0.1:8888',
    // Production needs an e-mail provider to start (finding 9); the measured read sends none, and a
    // send would go to a closed local port, never to Resend.
    RESEND_API_KEY: 'bench-coldstart-resend-key',
    RESEND_API_URL: 'http://127.0.0.1:9',
    // Production writes nothing here; a stray write stays out of the repository.
    DATA_DIR: join(work, 'data'),
  };
  console.log('\nMigrating and seeding the database (scripts/seed.ts, production)…');
  await run(process.execPath, [...process.execArgv, 'scripts/seed.ts'], { ...process.env, ...productionEnv });

  const url = `http://127.0.0.1:8888${READ_PATH}`;
  const bare: Probe[] = [];
  const api: Probe[] = [];
  const compared: Probe[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    bare.push(await probe(probeFile, bareModule, url, productionEnv));
    const profiling = options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profile}`];
    const result = await probe(probeFile, apiModule, url, productionEnv, profiling);
    if (result.status !== 200) throw new Error(`GET ${READ_PATH} answered ${result.status}`);
    api.push(result);
    if (options.compare !== undefined) compared.push(await probe(probeFile, options.compare, url, productionEnv));
  }
  if (options.compare !== undefined) report(`compared: ${options.compare}`, compared);

  const bareTotal = report('bare function (no dependencies), the baseline', bare).total;
  const apiTotal = report(`api function (.netlify/functions/api.zip): GET ${READ_PATH}`, api).total;
  const ratio = apiTotal / bareTotal;
  const apiZip = zips.find((zip) => zip.name === 'api');
  const zipBudget = ZIPPED_BUDGETS.api ?? 0;
  console.log(`\ncold start, api / bare (medians of ${RUNS}): ${ratio.toFixed(2)}x`);
  const budgets: [string, boolean][] = [
    [
      `api.zip ${((apiZip?.zipped ?? 0) / 1e6).toFixed(1)} MB, under ${(zipBudget / 1e6).toFixed(0)} MB`,
      (apiZip?.zipped ?? Infinity) < zipBudget,
    ],
    [
      `api cold start ${apiTotal.toFixed(0)} ms, within ${COLD_START_RATIO_BUDGET}x the bare bundle's ${bareTotal.toFixed(0)} ms`,
      ratio <= COLD_START_RATIO_BUDGET,
    ],
    [`function zips carry only what they run (${zipProblems.length} problem(s) above)`, zipProblems.length === 0],
  ];
  console.log('');
  for (const [label, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
  if (budgets.some(([, ok]) => !ok)) process.exitCode = 1;
} finally {
  for (const child of children) child.kill();
  await postgres.stop();
  await rm(work, { recursive: true, force: true });
}
