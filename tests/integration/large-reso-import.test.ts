/**
 * Security audit of 26 November 2026, finding 10: a 2.5 MB RESO JSON file of 1,250,000 zeros,
 * uploaded by an admin, froze the embedded-database server for about 3 minutes. Over real HTTP on
 * both backends: a trivial API call sent while the import is in its records answers while the
 * import is still reading them (ordered by events: how many records had been read when it
 * answered), and the audit's file goes through the routes and the background work to a run that
 * succeeded with every row read and skipped.
 */
import { describe, expect, it } from 'vitest';
import { dataRunsResponseSchema } from '../../src/features/market/data-admin.ts';
import { resoFileSource } from '../../src/features/market/reso-file-source.server.ts';
import type { ClosedSalesSource } from '../../src/features/market/reso-records.server.ts';
import { syncSoldHomes } from '../../src/features/market/sold-sync.server.ts';
import { expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { uploadThroughRoutes } from '../support/market-uploads.ts';

const ZEROS = 1_250_000;

describe.each(BACKENDS)('a large RESO import on %s', (backend) => {
  const suite = useAuthSuite(backend, 'large-reso-import');

  it('answers a request sent while the import reads its records before it has read them all', async () => {
    const file = resoFileSource(Array<number>(ZEROS).fill(0), 'zeros.json');
    let read = 0;
    let answer: Promise<{ status: number; readWhenAnswered: number }> | undefined;
    // The same file, watched: at its first record the import is in its loop, and the request goes.
    const watched: ClosedSalesSource = {
      origin: file.origin,
      closedSales: (query) =>
        file.closedSales({
          ...query,
          onSkip: (skipped) => {
            read += 1;
            answer ??= suite.api.fetch('/api/global/settings').then(async (response) => {
              const readWhenAnswered = read;
              await response.arrayBuffer();
              return { status: response.status, readWhenAnswered };
            });
            query.onSkip?.(skipped);
          },
        }),
    };
    const report = await syncSoldHomes(suite.db, watched);
    expect(report).toMatchObject({ rowsRead: ZEROS, rowsSkipped: ZEROS, invalid: ZEROS, rowsUpserted: 0 });
    const { status, readWhenAnswered } = (await answer) ?? { status: 0, readWhenAnswered: 0 };
    expect(status).toBe(200);
    // Before the fix the request waited for the last record (and the import's end): it was ZEROS.
    expect(readWhenAnswered).toBeGreaterThan(0);
    expect(readWhenAnswered).toBeLessThan(ZEROS);
  });

  it("imports the audit's 2.5 MB file of zeros through the routes: every row read and skipped", async () => {
    const admin = await clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
    const zeros = `[${Array<string>(ZEROS).fill('0').join(',')}]`;
    expect(zeros.length).toBeGreaterThan(2_500_000);
    const [id] = await uploadThroughRoutes(suite, admin, 'sold', 'sold-zeros-2.5MB.json', zeros);
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    expect(runs.find((run) => run.id === id)).toMatchObject({
      status: 'succeeded',
      rows_read: ZEROS,
      rows_skipped: ZEROS,
      towns_updated: 0,
    });
  });
});
