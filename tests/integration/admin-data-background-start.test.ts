/**
 * How the API starts the market-data imports on Netlify (src/platform/background-work.ts): a POST to
 * the background function with the shared secret and the job, after the runs are queued. When the
 * background function does not answer 202, the runs fail at once saying why and the admin gets 502,
 * rather than runs left queued that nothing will run.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_MESSAGES, dataRunsResponseSchema, dataStartedSchema } from '../../src/features/market/data-admin.ts';
import type { RefreshPlan } from '../../src/features/market/feeds.server.ts';
import {
  BACKGROUND_FUNCTION_PATH,
  BACKGROUND_SECRET_HEADER,
  backgroundSecret,
  netlifyBackgroundStarter,
} from '../../src/platform/background-work.ts';
import { header, readBody, startLoopbackServer, type LoopbackServer } from '../fakes/loopback-server.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const SECRET = backgroundSecret('background-start-session-secret-0123456789');
const received: { path: string | undefined; secret: string | undefined; body: string }[] = [];
let answer = 202;
let site: LoopbackServer;

beforeAll(async () => {
  site = await startLoopbackServer(async (request, response: ServerResponse) => {
    received.push({
      path: request.url,
      secret: header(request.headers, BACKGROUND_SECRET_HEADER),
      body: (await readBody(request)).toString('utf8'),
    });
    response.writeHead(answer).end();
  });
});
afterAll(() => site.close());

const feeds = (): RefreshPlan => ({
  zhvi: { origin: 'https://feeds.example/zhvi.csv', open: () => Promise.reject(new Error('not read here')) },
});

describe.each(BACKENDS)('starting the background function on %s', (backend) => {
  const suite = useAuthSuite(backend, 'background-start', {
    marketFeeds: feeds,
    startBackgroundWork: (job) => netlifyBackgroundStarter(site.origin, SECRET)(job),
  });

  it('queues the runs and POSTs the job with the secret; a refusal fails the runs with 502', async () => {
    const admin = await clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
    received.length = 0;
    answer = 202;
    const queued = await expectJson(await admin.post('/api/admin/data/refresh'), 202, dataStartedSchema);
    expect(received).toEqual([{ path: BACKGROUND_FUNCTION_PATH, secret: SECRET, body: '{"job":"imports"}' }]);
    const listed = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(listed.running).toBe(true);
    expect(listed.runs.find((run) => run.id === queued.run_ids[0])).toMatchObject({ status: 'queued' });
    // Nothing ran it here: it is taken for abandoned after an hour.
    await suite.db.query(`UPDATE data_runs SET started_at = now() - interval '2 hours' WHERE id = $1`, queued.run_ids);

    answer = 500;
    const before = Date.now();
    await expectError(await admin.post('/api/admin/data/refresh'), 502, DATA_MESSAGES.notStarted);
    const { runs, running } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(running).toBe(false);
    const failed = runs.find((run) => Date.parse(run.started_at) >= before - 60_000);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The import could not be started: the background function answered 500',
    });
  });
});
