/**
 * Sold homes from the RESO Web API into town_sold_homes, against the local fake of a RESO server
 * (tests/fakes/reso.ts), on both backends: Retry-After within the bound, token renewal and expiry,
 * credentials as Basic, and the bearer-token mode.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResoClient } from '../../src/features/market/reso-client.server.ts';
import { syncSoldHomes } from '../../src/features/market/sold-sync.server.ts';
import { startFakeReso, type FakeReso } from '../fakes/reso.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { NOW, feedForAllTowns, soldSyncHelpers } from '../support/sold-sync-suite.ts';

describe.each(BACKENDS)('sold homes sync on %s', (backend) => {
  let test: TestDatabase;
  let reso: FakeReso;
  let sleeps: number[];
  const { client } = soldSyncHelpers({
    test: () => test,
    reso: () => reso,
    sleeps: () => sleeps,
  });

  beforeAll(async () => {
    [test, reso] = await Promise.all([openTestDatabase(backend, 'sold-sync'), startFakeReso()]);
  });
  afterAll(async () => {
    await Promise.all([test?.close(), reso?.close()]);
  });
  beforeEach(async () => {
    await test.db.exec('DELETE FROM town_sold_homes; DELETE FROM data_sync_state;');
    reso.reset();
    reso.properties = feedForAllTowns();
    sleeps = [];
  });

  it('waits out a 429 whose Retry-After is within the bound, then goes on', async () => {
    reso.trouble({ kind: 'rate-limit', retryAfter: 2 }, { afterPages: 1, times: 2 });
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report).toMatchObject({ rowsRead: reso.properties.length, changed: true });
    expect(sleeps).toEqual([2000, 2000]);
    expect(reso.propertyRequests.map((request) => [request.status, request.skip])).toEqual([
      [200, null],
      [429, '200'],
      [429, '200'],
      [200, '200'],
      [200, '400'],
    ]);
  });

  it('renews an expired token once on 401 and goes on', async () => {
    reso.trouble({ kind: 'expire-tokens' }, { afterPages: 1 });
    const resoClient = client();
    const report = await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(report).toMatchObject({ rowsRead: reso.properties.length, rowsUpserted: reso.properties.length });
    expect(reso.propertyRequests.map((request) => [request.status, request.skip])).toEqual([
      [200, null],
      [401, '200'],
      [200, '200'],
      [200, '400'],
    ]);
    expect(reso.tokenRequests.map((request) => request.status)).toEqual([200, 200]);
    const [firstToken, , secondToken] = reso.propertyRequests.map((request) => request.authorization);
    expect(secondToken).not.toBe(firstToken);

    // The new token is kept for the next run.
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(reso.tokenRequests).toHaveLength(2);
  });

  it('asks for a new token when expires_in has run out, and can send the credentials as Basic', async () => {
    let clock = Date.now();
    const resoClient = client({ clientAuth: 'basic', scope: 'api', now: () => clock });
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    clock += 3_600_000;
    await syncSoldHomes(test.db, resoClient, { now: NOW });
    expect(reso.tokenRequests).toEqual([
      { status: 200, clientAuth: 'basic', grantType: 'client_credentials', scope: 'api' },
      { status: 200, clientAuth: 'basic', grantType: 'client_credentials', scope: 'api' },
    ]);
  });

  it('works with a static bearer token', async () => {
    const report = await syncSoldHomes(
      test.db,
      createResoClient({ baseUrl: `${reso.url}/`, bearerToken: reso.staticToken }),
      { now: NOW },
    );
    expect(report).toMatchObject({ rowsRead: reso.properties.length, changed: true });
    expect(reso.tokenRequests).toEqual([]);
    expect(new Set(reso.propertyRequests.map((request) => request.authorization))).toEqual(
      new Set([`Bearer ${reso.staticToken}`]),
    );
  });
});
