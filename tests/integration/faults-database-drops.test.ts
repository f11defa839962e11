/**
 * Faults during a burst of leads (issue 13, part 4): the database drops every connection
 * mid-request, then goes away (PostgreSQL through the Neon driver). Counted after recovery: every
 * lead a visitor was thanked for is stored once; every refusal is a 503 in the API's error shape
 * with nothing stored; every queued e-mail and CRM sync is delivered exactly once. The scenario
 * prints its counts once (console.info) for the closing note.
 * Decision record: docs/decisions/0023-faults-lose-nothing-and-send-nothing-twice.md.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatabaseUnavailable, openNeon, type Db } from '../../src/platform/db.ts';
import { openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { checkAnswers, checkDeliveries, runJobsUntilIdle } from '../support/faults-counts.ts';
import { afterResponsesSettled, burst, fub, resend, startHarness, type Harness } from '../support/faults-harness.ts';
import { startWsProxy, type RunningWsProxy } from '../support/ws-proxy.ts';

describe('the database drops every connection mid-burst (PostgreSQL through the Neon driver)', () => {
  let proxy: RunningWsProxy;
  let test: TestDatabase;
  let harness: Harness;
  /** A connection of its own, to end the API's from inside the database. */
  let side: Db;

  beforeAll(async () => {
    proxy = await startWsProxy();
    test = await openTestDatabase('postgres', 'faults', { wsProxy: proxy.address });
    harness = await startHarness(test, 'resend');
    const [database] = await test.db.query<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${database?.name ?? ''}`;
    side = openNeon(url.toString(), { wsProxy: proxy.address });
  });

  afterAll(async () => {
    proxy.resume();
    await harness.api.close();
    await side.close();
    await test.close();
    await proxy.stop();
  });

  it('thanks only for stored leads, refuses the rest with a 503 and nothing stored, recovers and then delivers everything once', async () => {
    resend.reset();
    fub.reset();
    const count = 120;

    // 1. The network drops every connection a quarter into the burst; the database itself is fine.
    let cut = 0;
    const dropped = await burst(harness, 'drop', count, (answered) => {
      if (answered === count / 4) cut = proxy.cut();
    });
    expect(cut).toBeGreaterThan(0);
    const drop = await checkAnswers(test.db, dropped);
    // A statement whose connection dropped is sent once more: no visitor is refused for that.
    expect(drop).toEqual({ sent: count, thanked: count, stored: count, refused: 0 });

    // 2. The database goes away a quarter into the burst: every connection ended from inside it
    // (statements under way are rolled back) and no new one accepted, until two thirds are answered.
    await side.query('SELECT 1');
    let ended: Promise<number> = Promise.resolve(0);
    const outage = await burst(harness, 'outage', count, (answered) => {
      if (answered === count / 4) {
        proxy.pause();
        ended = side
          .query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n
               FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          )
          .then(([row]) => row?.n ?? 0);
      }
      if (answered === (count * 2) / 3) proxy.resume();
    });
    proxy.resume();
    expect(await ended).toBeGreaterThan(0);
    const down = await checkAnswers(test.db, outage);
    expect(down.refused).toBeGreaterThan(0);
    expect(down.thanked).toBeGreaterThan(0);

    // The pool has recovered: the next visitor is thanked and stored.
    const after = await burst(harness, 'after', 3);
    expect(await checkAnswers(test.db, after)).toEqual({ sent: 3, thanked: 3, stored: 3, refused: 0 });
    // Every failure the API logged was the outage, recognised as such.
    expect(harness.logged.filter((error) => !(error instanceof DatabaseUnavailable))).toEqual([]);

    await afterResponsesSettled(harness);
    const rounds = await runJobsUntilIdle(harness);
    const stored = [...dropped, ...outage, ...after].filter((one) => one.status === 201).map((one) => one.email);
    const delivered = await checkDeliveries(harness, stored);
    const counts = {
      sent: drop.sent + down.sent + after.length,
      thanked: drop.thanked + down.thanked + 3,
      stored: drop.stored + down.stored + 3,
      refused: down.refused,
      connectionsCut: cut,
      connectionsEnded: await ended,
      ...delivered,
      scheduledRounds: rounds,
    };
    console.info(`[faults] database drops: ${JSON.stringify(counts)}`);
    expect(counts.stored).toBe(counts.thanked);
    expect(counts.sent).toBe(counts.thanked + counts.refused);
    expect(delivered.duplicates).toBe(0);
    // Follow Up Boss's answers that could not be recorded during the outage were recorded after it.
    expect(delivered.crmEventsRepeated).toBe(0);
  });
});
