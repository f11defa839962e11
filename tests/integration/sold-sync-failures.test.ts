/**
 * Sold homes from the RESO Web API into town_sold_homes, against the local fake of a RESO server
 * (tests/fakes/reso.ts), on both backends: every kind of failure leaving the previous rows and
 * position untouched.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ResoErrorKind } from '../../src/features/market/reso-error.server.ts';
import { syncSoldHomes, type SoldTown } from '../../src/features/market/sold-sync.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import {
  closedSale,
  generateClosedSales,
  startFakeReso,
  type FakeReso,
  type ResoTrouble,
  type TroubleOptions,
} from '../fakes/reso.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { NOW, LATER, feedForAllTowns, soldSyncHelpers } from '../support/sold-sync-suite.ts';

describe.each(BACKENDS)('sold homes sync on %s', (backend) => {
  let test: TestDatabase;
  let reso: FakeReso;
  let sleeps: number[];
  const { snapshot, client, failureKind } = soldSyncHelpers({
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

  describe('a failure leaves the previous rows and position as they were', () => {
    const failures: [string, ResoTrouble, TroubleOptions, ResoErrorKind][] = [
      ['500 on the first page', { kind: 'server-error' }, {}, 'http'],
      ['503 on the third page', { kind: 'server-error', status: 503 }, { afterPages: 2 }, 'http'],
      ['an HTML page mid-run', { kind: 'malformed', body: 'html' }, { afterPages: 1 }, 'malformed'],
      ['broken JSON mid-run', { kind: 'malformed', body: 'broken-json' }, { afterPages: 1 }, 'malformed'],
      ['JSON that is not OData', { kind: 'malformed', body: 'not-odata' }, { afterPages: 2 }, 'malformed'],
      ['a connection cut mid-page', { kind: 'cut' }, { afterPages: 1 }, 'network'],
      ['429 beyond the Retry-After bound', { kind: 'rate-limit', retryAfter: 3600 }, { afterPages: 1 }, 'rate-limit'],
      ['429 again and again', { kind: 'rate-limit', retryAfter: 1 }, { afterPages: 1, times: Infinity }, 'rate-limit'],
    ];

    it.each(failures)('%s', async (_label, trouble, options, kind) => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      // A feed that would change many rows, were the run to complete.
      for (const record of reso.properties) {
        record.ClosePrice = Number(record.ClosePrice) + 1000;
        record.ModificationTimestamp = LATER[2];
      }
      reso.reset();
      reso.trouble(trouble, options);
      expect(await failureKind(syncSoldHomes(test.db, client(), { now: NOW, full: true }))).toBe(kind);
      expect(await snapshot()).toEqual(before);
      // Once the feed answers again, the next run gets everything.
      reso.reset();
      const report = await syncSoldHomes(test.db, client(), { now: NOW });
      expect(report).toMatchObject({ mode: 'incremental', rowsUpserted: reso.properties.length, changed: true });
    });

    it('a time-out', async () => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      reso.properties[0] = { ...reso.properties[0], ModificationTimestamp: LATER[2] };
      reso.reset();
      reso.trouble({ kind: 'slow', ms: 1_000 });
      expect(await failureKind(syncSoldHomes(test.db, client({ timeoutMs: 200 }), { now: NOW }))).toBe('timeout');
      expect(await snapshot()).toEqual(before);
    });

    it('a server that cannot be reached', async () => {
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      const gone = await startFakeReso();
      const url = gone.url;
      await gone.close();
      expect(
        await failureKind(
          syncSoldHomes(test.db, client({ baseUrl: url, tokenUrl: undefined, bearerToken: 'x' }), { now: NOW }),
        ),
      ).toBe('network');
      expect(await snapshot()).toEqual(before);
    });

    it('a database failure inside the write rolls the whole run back', async () => {
      // Over 1,000 sales: the upsert takes two statements.
      reso.properties = allTowns().flatMap((each, index) =>
        generateClosedSales({ towns: [each], now: NOW, perTown: 9, seed: index + 1, keyPrefix: `${each.slug}:` }),
      );
      await syncSoldHomes(test.db, client(), { now: NOW });
      const before = await snapshot();
      expect(before.rows.length).toBeGreaterThan(1000);
      for (const record of reso.properties) {
        record.ClosePrice = Number(record.ClosePrice) + 1000;
        record.ModificationTimestamp = LATER[1];
      }
      // A town the database does not have: its sale (the last one) breaks the foreign key in the
      // second statement, after the first has upserted 1,000 rows.
      const atlantis: SoldTown = { slug: 'atlantis', name: 'Atlantis', county: 'Suffolk', zipCodes: ['11999'] };
      reso.properties.push(
        closedSale({
          ListingKey: 'zz-atlantis',
          City: 'Atlantis',
          CountyOrParish: 'Suffolk',
          ModificationTimestamp: LATER[2],
        }),
      );
      await expect(syncSoldHomes(test.db, client(), { now: NOW, towns: [...allTowns(), atlantis] })).rejects.toThrow(
        /foreign key/,
      );
      expect(await snapshot()).toEqual(before);
    });

    it('a bearer token the server refuses (no retry: it cannot be renewed)', async () => {
      const kind = await failureKind(
        syncSoldHomes(test.db, client({ tokenUrl: undefined, bearerToken: 'not-the-token' }), { now: NOW }),
      );
      expect(kind).toBe('auth');
      expect(reso.propertyRequests.map((request) => request.status)).toEqual([401]);
      expect(await snapshot()).toEqual({ rows: [], position: undefined });
    });

    it('client credentials the token endpoint refuses', async () => {
      expect(await failureKind(syncSoldHomes(test.db, client({ clientSecret: 'wrong' }), { now: NOW }))).toBe('auth');
      expect(reso.tokenRequests.map((request) => request.status)).toEqual([401]);
      expect(reso.propertyRequests).toEqual([]);
      expect(await snapshot()).toEqual({ rows: [], position: undefined });
    });
  });
});
