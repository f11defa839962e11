/**
 * Sold homes from the RESO Web API into town_sold_homes, against the local fake of a RESO server
 * (tests/fakes/reso.ts), on both backends: the incremental run, idempotence, the 12-month window,
 * and a full run removing the sales the feed no longer lists.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { syncSoldHomes } from '../../src/features/market/sold-sync.server.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { closedSale, generateClosedSales, startFakeReso, type FakeReso } from '../fakes/reso.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { NOW, WINDOW_START, LATER, feedForAllTowns, slugOfKey, soldSyncHelpers } from '../support/sold-sync-suite.ts';

describe.each(BACKENDS)('sold homes sync on %s', (backend) => {
  let test: TestDatabase;
  let reso: FakeReso;
  let sleeps: number[];
  const { rows, snapshot, pageSales, client } = soldSyncHelpers({
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

  it('then fetches only what was modified after the stored position', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const before = await snapshot();
    const from = before.position?.position ?? '';
    reso.reset();

    const [first, second] = reso.properties;
    if (!first || !second) throw new Error('empty feed');
    first.ClosePrice = 1_234_567.89;
    first.ModificationTimestamp = LATER[0];
    second.ListAgentFullName = 'Grace Kim';
    second.ModificationTimestamp = LATER[1];
    const added = closedSale({
      ListingKey: 'montauk:new',
      City: 'Montauk',
      PostalCode: '11954',
      CountyOrParish: 'Suffolk',
      CloseDate: '2026-03-13',
      ModificationTimestamp: LATER[2],
    });
    reso.properties.push(added);

    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(reso.propertyRequests).toHaveLength(1);
    expect(reso.propertyRequests[0]?.filter).toBe(
      `StandardStatus eq 'Closed' and CloseDate ge ${WINDOW_START} and ` +
        `(CountyOrParish eq 'Nassau' or CountyOrParish eq 'Suffolk') and ModificationTimestamp gt ${from}`,
    );
    expect(report).toMatchObject({
      mode: 'incremental',
      since: new Date(from),
      rowsRead: 3,
      rowsUpserted: 3,
      rowsDeleted: 0,
      changed: true,
      townsUpdated: new Set([slugOfKey(first.ListingKey), slugOfKey(second.ListingKey), 'montauk']).size,
      position: '2026-03-16T14:59:30.000000Z',
    });
    const after = await rows();
    expect(after).toHaveLength(before.rows.length + 1);
    expect(after.find((row) => row.listing_key === first.ListingKey)?.price_cents).toBe(123_456_789);
    expect(after.find((row) => row.listing_key === second.ListingKey)?.listing_agent).toBe('Grace Kim');
    expect(after.find((row) => row.listing_key === 'montauk:new')?.town_slug).toBe('montauk');
    // Every other row is untouched.
    const untouched = new Set([first.ListingKey, second.ListingKey, 'montauk:new']);
    expect(after.filter((row) => !untouched.has(row.listing_key))).toEqual(
      before.rows.filter((row) => !untouched.has(row.listing_key)),
    );
    expect(await pageSales('montauk')).toContainEqual({ listing_key: 'montauk:new', sold_date: '2026-03-13' });
  });

  it('is idempotent: running again changes nothing', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const first = await snapshot();

    const incremental = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(incremental).toMatchObject({
      mode: 'incremental',
      rowsRead: 0,
      rowsUpserted: 0,
      rowsDeleted: 0,
      townsUpdated: 0,
      changed: false,
    });
    const full = await syncSoldHomes(test.db, client(), { now: NOW, full: true });
    expect(full).toMatchObject({
      mode: 'full',
      rowsRead: reso.properties.length,
      rowsUpserted: 0,
      rowsDeleted: 0,
      townsUpdated: 0,
      changed: false,
    });
    const after = await snapshot();
    expect(after.rows).toEqual(first.rows);
    expect(after.position?.position).toBe(first.position?.position);
  });

  it('keeps 12 months: older sales are neither fetched nor kept', async () => {
    reso.properties = generateClosedSales({ towns: allTowns().slice(0, 20), now: NOW, perTown: 6, monthsBack: 16 });
    const inWindow = reso.properties.filter((record) => String(record.CloseDate) >= WINDOW_START);
    expect(inWindow.length).toBeLessThan(reso.properties.length);
    const report = await syncSoldHomes(test.db, client(), { now: NOW });
    expect(report.rowsRead).toBe(inWindow.length);
    expect((await rows()).map((row) => row.listing_key)).toEqual(
      inWindow.map((record) => String(record.ListingKey)).sort(),
    );

    // Three months on, the sales that have left the window are dropped.
    const later = new Date('2026-06-16T15:00:00Z');
    const report2 = await syncSoldHomes(test.db, client(), { now: later });
    const kept = inWindow.filter((record) => String(record.CloseDate) >= '2025-06-16');
    expect(report2).toMatchObject({
      closedOnOrAfter: '2025-06-16',
      rowsDeleted: inWindow.length - kept.length,
      changed: true,
    });
    expect((await rows()).map((row) => row.listing_key)).toEqual(
      kept.map((record) => String(record.ListingKey)).sort(),
    );
  });

  it('a full run also removes the sales the feed no longer lists', async () => {
    await syncSoldHomes(test.db, client(), { now: NOW });
    const withdrawn = reso.properties.splice(0, 2).map((record) => String(record.ListingKey));
    const report = await syncSoldHomes(test.db, client(), { now: NOW, full: true });
    expect(report).toMatchObject({
      rowsDeleted: 2,
      changed: true,
      townsUpdated: new Set(withdrawn.map(slugOfKey)).size,
    });
    const keys = new Set((await rows()).map((row) => row.listing_key));
    for (const key of withdrawn) expect(keys.has(key)).toBe(false);
  });
});
