// npm run bench:auth — what login costs: one scrypt hash with the current parameters (target
// 50-150 ms on this machine), a login and GET /api/auth/me on the embedded database, and the
// database round trips of each call.
import { performance } from 'node:perf_hooks';
import { CURRENT_PARAMS, hashPassword, verifyPassword } from '../src/features/auth/public/passwords.server.ts';
import { createApi } from '../src/app/app.ts';
import { appDepsFrom } from '../src/app/compose.ts';
import { openPglite } from '../src/platform/pglite.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { seed } from '../src/app/seed.ts';

const RUNS = 11;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
async function timed(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const hashTimes: number[] = [];
for (let run = 0; run < RUNS; run += 1) hashTimes.push(await timed(() => hashPassword('correct horse battery staple')));
const stored = await hashPassword('correct horse battery staple');
const verifyTimes: number[] = [];
for (let run = 0; run < RUNS; run += 1)
  verifyTimes.push(await timed(() => verifyPassword('correct horse battery staple', stored)));

const env = parseEnv({ DATA_DIR: '.data/bench-auth' });
const db = await openPglite(undefined);
await migrate(db);
await seed(db, featuredAgentFrom(env), { demo: true });
const app = createApi({ ...appDepsFrom(env, db), runAfterResponse: () => undefined });
const origin = 'http://localhost';
const login = () =>
  app.request(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'agent@example.com', password: 'demo-agent-password' }),
  });

const beforeLogin = db.roundTrips;
const loggedIn = await login();
const loginTrips = db.roundTrips - beforeLogin;
const cookie = (loggedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
if (loggedIn.status !== 200 || !cookie) throw new Error(`demo login failed: ${loggedIn.status}`);
const loginTimes: number[] = [];
for (let run = 0; run < RUNS; run += 1) loginTimes.push(await timed(login));

const me = () => app.request(`${origin}/api/auth/me`, { headers: { Cookie: cookie } });
const beforeMe = db.roundTrips;
const meResponse = await me();
const meTrips = db.roundTrips - beforeMe;
if (meResponse.status !== 200) throw new Error(`me failed: ${meResponse.status}`);
const meTimes: number[] = [];
for (let run = 0; run < 200; run += 1) meTimes.push(await timed(me));
await db.close();

const { N, r, p } = CURRENT_PARAMS;
console.log(`scrypt N=${N} r=${r} p=${p} (memory ${(128 * N * r) / 2 ** 20} MiB)`);
console.log(`hash:   median ${median(hashTimes).toFixed(1)} ms over ${RUNS} runs`);
console.log(`verify: median ${median(verifyTimes).toFixed(1)} ms`);
console.log(`login (in-process, PGlite): median ${median(loginTimes).toFixed(1)} ms, ${loginTrips} DB round trips`);
console.log(`GET /api/auth/me: median ${median(meTimes).toFixed(2)} ms, ${meTrips} DB round trip(s)`);
const budgets = [
  ['one hash takes 50-150 ms', median(hashTimes) >= 50 && median(hashTimes) <= 150],
  ['GET /api/auth/me makes at most one DB round trip', meTrips <= 1],
] as const;
for (const [label, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}`);
process.exitCode = budgets.every(([, ok]) => ok) ? 0 : 1;
