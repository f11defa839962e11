// npm run check:netlify (a step of npm test): the site as Netlify's own tooling builds and serves it.
// 1. Netlify's CLI, pinned in tools/netlify (its own package: `npm install` of the project does not
//    fetch its ~1,000 packages), installed there on first use.
// 2. `netlify serve --offline`: Netlify's real build (`npm run build`, then every function bundled by
//    Netlify's bundler into .netlify/functions/*.zip) and Netlify's local server in front of it.
//    A function that cannot be bundled fails here.
// 3. The table of scripts/netlify/parity.ts asked of that server and of `npm run serve` (what `npm
//    start` serves) on the same database: statuses and the headers that matter must agree.
// Both servers use a throwaway PostgreSQL through the Neon driver (as production does), since
// Netlify's local server runs each function call in a new worker thread (decision 0031).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { start as startPostgres } from '../tests/support/postgres.ts';
import { startWsProxy } from '../tests/support/ws-proxy.ts';
import { anAstroScript, askAll, compare, PARITY_TABLE, type Answer } from './netlify/parity.ts';
import { checkFunctionZips, readFunctionZips, sizeTable } from './netlify/zip-budget.ts';

const TOOLS = 'tools/netlify';
const NETLIFY = `${TOOLS}/node_modules/.bin/netlify`;
const DATA_DIR = '.data/netlify-check';
const FUNCTION_ZIPS = '.netlify/functions';
const NETLIFY_PORT = Number(process.env.NETLIFY_CHECK_PORT ?? 8891);
const LOCAL_PORT = NETLIFY_PORT + 1;
/** The build and the bundling take minutes on a busy 2-core machine; a server never up is a failure. */
const SERVER_READY_MS = 15 * 60_000;

function ensureCli(): void {
  if (existsSync(NETLIFY)) return;
  console.log(`Installing Netlify's CLI into ${TOOLS} (once)…`);
  const install = spawnSync('npm', ['ci', '--prefix', TOOLS, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (install.status !== 0 || !existsSync(NETLIFY)) throw new Error(`npm ci in ${TOOLS} failed`);
  spawnSync(NETLIFY, ['--telemetry-disable'], { stdio: 'ignore' });
}

/** Starts a server in its own process group (so that everything it started stops with it). */
function startServer(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => `[${label}] ${line}`)
      .join('\n');
  child.stdout?.on('data', (chunk: Buffer) => console.log(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => console.error(prefix(chunk)));
  return child;
}

function stopServer(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

/** Resolves once the server answers its home page; rejects if it exits or the time is up first. */
async function ready(child: ChildProcess, origin: string): Promise<void> {
  const deadline = Date.now() + SERVER_READY_MS;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server for ${origin} exited before it answered (exit code ${child.exitCode})`);
    const answered = await fetch(origin, { signal: AbortSignal.timeout(30_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`The server for ${origin} did not answer within ${SERVER_READY_MS / 60_000} minutes`);
}

async function answersOf(
  label: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  origin: string,
  whenReady: () => Promise<void> = () => Promise.resolve(),
): Promise<Answer[]> {
  const child = startServer(label, command, args, env);
  try {
    await ready(child, origin);
    await whenReady();
    return await askAll(origin, PARITY_TABLE, anAstroScript('dist'));
  } finally {
    stopServer(child);
  }
}

ensureCli();
rmSync(DATA_DIR, { recursive: true, force: true });
rmSync(FUNCTION_ZIPS, { recursive: true, force: true });
const postgres = await startPostgres();
const proxy = await startWsProxy();
const problems: string[] = [];
try {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: postgres.connectionString,
    DATABASE_WS_PROXY: proxy.address,
    DATA_DIR,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // Nothing leaves the machine: no build hook, no e-mail provider, no feeds.
    BUILD_HOOK_URL: '',
    RESEND_API_KEY: '',
  };
  const netlify = await answersOf(
    'netlify serve',
    NETLIFY,
    ['serve', '--offline', '--internal-disable-edge-functions', '--port', String(NETLIFY_PORT)],
    env,
    `http://localhost:${NETLIFY_PORT}`,
    // The build is done once the server answers: what went into each function's zip (decision 0026).
    async () => {
      console.log(`\n${sizeTable(await readFunctionZips(FUNCTION_ZIPS))}\n`);
      problems.push(...(await checkFunctionZips(FUNCTION_ZIPS)));
    },
  );
  const local = await answersOf(
    'npm start',
    'npx',
    ['tsx', 'scripts/serve.ts'],
    { ...env, PORT: String(LOCAL_PORT) },
    `http://127.0.0.1:${LOCAL_PORT}`,
  );
  problems.push(...compare(PARITY_TABLE, netlify, local));
  console.log('\nrequest | netlify serve | npm start');
  PARITY_TABLE.forEach((row, index) =>
    console.log(`${row.name} | ${netlify[index]?.status ?? '-'} | ${local[index]?.status ?? '-'}`),
  );
} finally {
  await proxy.stop();
  await postgres.stop();
}
if (problems.length > 0) {
  console.error(`\n${problems.length} difference(s):\n${problems.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `\nNetlify's build bundled every function; ${PARITY_TABLE.length} requests answered alike by both servers.`,
);
