// npm run bench:reso-import — the security audit's RESO upload (finding 10): a 2.5 MB JSON file of
// 1,250,000 zeros, sent through the real routes as /admin/data sends it (chunks, then complete) to
// the API on the embedded database (in-memory PGlite, in this process, as `npm start` runs it),
// imported by the background work in-process. Reported: the time from completing the upload to the
// run's end, the event loop's worst delay meanwhile (perf_hooks.monitorEventLoopDelay), and the
// slowest answer of a trivial API call (GET /api/global/settings) sent one after another throughout.
// `--records N` changes the number of records; `--kind objects` sends N empty objects (each fails the
// record schema), `--kind valid` N valid sales of the towns, instead of zeros.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type * as z from 'zod';
import { dataRunsResponseSchema } from '../src/features/market/data-admin.ts';
import { uploadMarketFile } from '../src/features/market/upload-chunks.ts';
import { allTowns } from '../src/features/towns/public/town-data.ts';
import { appDepsFrom } from '../src/app/compose.ts';
import { parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { openPglite } from '../src/platform/pglite.ts';
import { DEMO_ACCOUNTS, seed } from '../src/app/seed.ts';
import { generateClosedSales } from '../tests/fakes/reso.ts';
import { startApi } from '../tests/support/http.ts';

type DataRun = z.infer<typeof dataRunsResponseSchema>['runs'][number];

const { values } = parseArgs({
  options: { records: { type: 'string', default: '1250000' }, kind: { type: 'string', default: 'zeros' } },
});
const records = Number(values.records);
const admin = DEMO_ACCOUNTS.find((account) => account.is_admin);
if (!admin) throw new Error('no demo admin');

const kinds: Record<string, () => string> = {
  zeros: () => `[${Array<string>(records).fill('0').join(',')}]`,
  objects: () => `[${Array<string>(records).fill('{}').join(',')}]`,
  valid: () =>
    JSON.stringify({
      value: generateClosedSales({
        towns: allTowns(),
        now: new Date(),
        perTown: Math.ceil(records / allTowns().length),
        monthsBack: 6,
      }),
    }),
};
const make = kinds[values.kind];
if (!make) throw new Error(`--kind is one of ${Object.keys(kinds).join(', ')}`);
const file = make();

/** The run `id` of a GET /api/admin/data/runs answer. */
async function runOf(answer: Response, id: number | undefined): Promise<DataRun | undefined> {
  const { runs } = dataRunsResponseSchema.parse(await answer.json());
  return runs.find((run) => run.id === id);
}

const env = parseEnv({ DATA_DIR: '.data/bench-reso-import' });
const db = await openPglite(undefined);
await migrate(db);
await seed(db, featuredAgentFrom(env), { demo: true, adminEmails: [] });
const api = await startApi(appDepsFrom(env, db));
try {
  const login = await api.postJson('/api/auth/login', { email: admin.email, password: admin.password });
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  if (login.status !== 200 || !cookie) throw new Error(`login answered ${login.status}`);
  const headers = { cookie, origin: api.origin };

  console.log(`File: ${(file.length / 1e6).toFixed(2)} MB, ${records} records (${values.kind})`);
  // The client runs in this process too: while the import holds the event loop, no answer arrives.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const blob = new Blob([file]);
  const { run_ids: runIds } = await uploadMarketFile({
    kind: 'sold',
    name: 'bench.json',
    size: blob.size,
    stream: blob.stream(),
    fetch: (path, init) =>
      api.fetch(path, { method: init.method, headers: { ...init.headers, ...headers }, body: init.body }),
  });
  const uploaded = { seconds: (performance.now() - started) / 1000, worst: loop.max };
  loop.reset();
  let slowest = 0;
  let calls = 0;
  let run: DataRun | undefined;
  // Until the run ends (at most 20 minutes).
  while (
    (run === undefined || run.status === 'queued' || run.status === 'running') &&
    performance.now() - started < 1_200_000
  ) {
    const before = performance.now();
    const answer = await api.fetch('/api/global/settings');
    await answer.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - before);
    calls += 1;
    run = await runOf(await api.fetch('/api/admin/data/runs', { headers }), runIds[0]);
  }
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  console.log(`Run: ${JSON.stringify(run)}`);
  console.log(`Upload and import finished after ${seconds.toFixed(2)} s`);
  console.log(
    `The upload (chunks, then complete) answered after ${uploaded.seconds.toFixed(2)} s, the event loop's worst delay till then ${(uploaded.worst / 1e6).toFixed(0)} ms`,
  );
  console.log(
    `Worst event-loop delay after the upload's answer: ${(loop.max / 1e6).toFixed(0)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms)`,
  );
  console.log(
    `Slowest GET /api/global/settings of ${calls} sent one after another meanwhile: ${slowest.toFixed(0)} ms`,
  );
} finally {
  await api.close();
  await db.close();
}
