/**
 * The background function is served at a public address (/.netlify/functions/…): only the site's
 * own scheduled function and API, which send the secret derived from SESSION_SECRET, can start it
 * (decision 0028). Its default export is called here as Netlify calls it: without the secret or with
 * a wrong one it returns having touched neither the database (no data_runs row) nor the network (no
 * request to the Zillow feed); with the right one it runs the refresh. And the scheduled function
 * starts it with that secret, and without URL (`netlify functions:serve`) says why it cannot
 * rather than failing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import refreshInBackground from '../../netlify/functions/refresh-market-data-background.mts';
import startDailyRefresh from '../../netlify/functions/refresh-market-data.mts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { BACKGROUND_SECRET_HEADER, backgroundSecret } from '../../src/platform/background-work.ts';
import { openDatabase } from '../../src/platform/database.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { featuredAgentFrom } from '../../src/platform/featured-agent.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { seed } from '../../src/app/seed.ts';
import { header, readBody, startLoopbackServer } from '../fakes/loopback-server.ts';
import { startFakeZillow, ZHVI_PATH, zhviCsvText, type FakeZillow } from '../fakes/zillow.ts';

const SESSION_SECRET = 'background-test-session-secret-0123456789';
const FUNCTION_URL = 'https://homes.example.com/.netlify/functions/refresh-market-data-background';

let dataDir = '';
let zillow: FakeZillow;

/** The environment the functions read: an embedded database of their own, the fake Zillow feed. */
function stubEnvironment() {
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('SESSION_SECRET', SESSION_SECRET);
  vi.stubEnv('ZHVI_CSV_URL', zillow.urlOf(ZHVI_PATH));
  vi.stubEnv('ZILLOW_INVENTORY_CSV_URL', '');
  vi.stubEnv('RESO_BASE_URL', '');
  vi.stubEnv('NETLIFY_PURGE_API_TOKEN', '');
  vi.stubEnv('APP_ENV', 'test');
}

async function runCount(): Promise<number> {
  const db = await openDatabase(parseEnv({ DATA_DIR: dataDir }));
  try {
    return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM data_runs'))[0]?.n ?? -1;
  } finally {
    await db.close();
  }
}

const invocation = (secret?: string) =>
  new Request(FUNCTION_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret === undefined ? {} : { [BACKGROUND_SECRET_HEADER]: secret }),
    },
    body: JSON.stringify({ job: 'scheduled-refresh' }),
  });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'background-function-'));
  zillow = await startFakeZillow({
    [ZHVI_PATH]: zhviCsvText({
      towns: allTowns()
        .slice(0, 3)
        .map(({ name, county }) => ({ name, county })),
      extraRows: 20,
    }),
  });
  const db = await openDatabase(parseEnv({ DATA_DIR: dataDir }));
  try {
    await migrate(db);
    await seed(db, featuredAgentFrom(parseEnv({})));
  } finally {
    await db.close();
  }
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await zillow.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the background function', () => {
  it('does nothing without the secret or with a wrong one, and runs the refresh with the right one', async () => {
    stubEnvironment();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const right = backgroundSecret(SESSION_SECRET);
    const wrongOfTheSameLength = `${right.slice(0, -1)}${right.endsWith('0') ? '1' : '0'}`;
    for (const secret of [undefined, '', 'not-the-secret', wrongOfTheSameLength, backgroundSecret('x'.repeat(40))]) {
      await refreshInBackground(invocation(secret), {});
      expect(zillow.requests, `secret ${String(secret)}`).toEqual([]);
      expect(await runCount(), `secret ${String(secret)}`).toBe(0);
    }
    expect(warn).toHaveBeenCalledTimes(5);

    await refreshInBackground(invocation(right), {});
    expect(zillow.requests.map((request) => request.path)).toEqual([ZHVI_PATH]);
    expect(await runCount()).toBe(1);
  });
});

describe('the daily scheduled function', () => {
  it('starts the background function with the secret and the job', async () => {
    const received: { secret: string | undefined; body: string; path: string | undefined }[] = [];
    const site = await startLoopbackServer(async (request, response) => {
      received.push({
        secret: header(request.headers, BACKGROUND_SECRET_HEADER),
        body: (await readBody(request)).toString('utf8'),
        path: request.url,
      });
      response.writeHead(202).end();
    });
    try {
      stubEnvironment();
      vi.stubEnv('URL', site.origin);
      vi.spyOn(console, 'info').mockImplementation(() => undefined);
      expect((await startDailyRefresh()).status).toBe(204);
      expect(received).toEqual([
        {
          secret: backgroundSecret(SESSION_SECRET),
          body: JSON.stringify({ job: 'scheduled-refresh' }),
          path: '/.netlify/functions/refresh-market-data-background',
        },
      ]);
    } finally {
      await site.close();
    }
  });

  it('says why it cannot start the refresh when URL is not set, rather than throwing', async () => {
    stubEnvironment();
    vi.stubEnv('URL', '');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await startDailyRefresh()).status).toBe(204);
    expect(error).toHaveBeenCalledWith(
      '[refresh-market-data] not started: URL is not set, so the background function has no address',
    );
  });
});
