/**
 * The proof that /admin/data imports real-size files within Netlify's limits (decision 0028): a
 * synthetic Zillow City ZHVI file of the real shape and over 100 MB (24,000 US places × 300 months,
 * the Long Island towns among them), and a RESO JSON file of over 20 MB, each uploaded through the
 * real routes over HTTP by the very code the browser runs (upload-chunks.ts), with no request body
 * over 4.5 MB; the import runs as background work and the towns' data are what the files said.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataRunsResponseSchema } from '../../src/features/market/data-admin.ts';
import { uploadMarketFile } from '../../src/features/market/upload-chunks.ts';
import { allTowns } from '../../src/features/towns/public/town-data.ts';
import { generateClosedSales } from '../fakes/reso.ts';
import { fakeSeries, zhviCsv } from '../fakes/zillow.ts';
import { expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { clientFetch } from '../support/market-uploads.ts';

/** Netlify: 6 MB per request body, 4.5 MB once a binary body is base64-encoded. */
const NETLIFY_BINARY_BODY_LIMIT = 4_718_592;
const MONTHS = 300;
const MEBIBYTE = 1024 * 1024;

const REMARKS = (
  'Sun-filled colonial on a quiet tree-lined street, minutes from the train, shops and the beach. ' +
  'The updated eat-in kitchen opens to a family room with a fireplace and sliders to a private, fenced yard. '
).repeat(14);

let dir = '';
let zhviPath = '';
let soldPath = '';
let soldCount = 0;

/** Streams the generated file to disk, a line at a time: it is never in memory whole. */
async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(line)) await once(out, 'drain');
  out.end();
  await finished(out);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'market-full-size-'));
  zhviPath = join(dir, 'City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv');
  await writeLines(
    zhviPath,
    zhviCsv({
      months: MONTHS,
      towns: allTowns().map((town) => ({ name: town.name, county: town.county })),
      extraRows: 24_000,
    }),
  );
  // An MLS export carries each listing's remarks, up to a few thousand characters.
  const sales = generateClosedSales({ towns: allTowns(), now: new Date(), perTown: 55, keyPrefix: 'BIG' }).map(
    (sale, index) => ({ ...sale, PublicRemarks: `${REMARKS} (listing ${index})` }),
  );
  soldCount = sales.length;
  soldPath = join(dir, 'closed-sales.json');
  await writeFile(soldPath, JSON.stringify({ value: sales }));
}, 120_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

/** The picked file as the browser's File.stream() gives it: read from disk as it is consumed. */
async function fileStream(path: string): Promise<ReadableStream<Uint8Array>> {
  const handle = await open(path);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const buffer = new Uint8Array(1 << 20);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead > 0) return controller.enqueue(buffer.subarray(0, bytesRead));
      await handle.close();
      controller.close();
    },
    cancel: () => handle.close(),
  });
}

describe.each(BACKENDS)('a full-size market-data file through /admin/data on %s', (backend) => {
  const suite = useAuthSuite(backend, 'market-full-size');

  /** Uploads the file as the screen does; answers the run and the size of every request body. */
  async function upload(kind: 'zhvi' | 'sold', path: string, name: string) {
    const admin = await clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
    const bodies: number[] = [];
    const { size } = await stat(path);
    const started = await uploadMarketFile({
      kind,
      name,
      size,
      stream: await fileStream(path),
      fetch: clientFetch(suite, admin, bodies),
    });
    // The background work: waited for, not slept for.
    await suite.settle();
    const { runs } = await expectJson(await admin.get('/api/admin/data/runs'), 200, dataRunsResponseSchema);
    return { size, bodies, run: runs.find((run) => run.id === started.run_ids[0]) };
  }

  it('imports a ZHVI City file of over 100 MB with every request under 4.5 MB: the towns’ values are the file’s', async () => {
    const { size, bodies, run } = await upload('zhvi', zhviPath, 'City_zhvi.csv');
    expect(size).toBeGreaterThan(100 * MEBIBYTE);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) expect(body).toBeLessThan(NETLIFY_BINARY_BODY_LIMIT);
    // Only the header and the New York rows went up.
    expect(bodies.reduce((sum, body) => sum + body, 0)).toBeLessThan(size / 10);
    expect(run).toMatchObject({ status: 'succeeded', error: null, towns_updated: allTowns().length });

    const stored = await suite.db.query<{ town_slug: string; cents: string; latest: string }>(
      `SELECT town_slug, typical_home_value_cents::text AS cents, zhvi_range -> -1 ->> 'timePeriodEnd' AS latest
         FROM town_market_data`,
    );
    const bySlug = new Map(stored.map((row) => [row.town_slug, row]));
    for (const town of allTowns()) {
      const last = fakeSeries(town.name, MONTHS).at(-1) ?? 0;
      expect(bySlug.get(town.slug), town.slug).toMatchObject({
        cents: String(Math.round(last * 100)),
        latest: '2025-09-30',
      });
    }
  }, 120_000);

  it('imports a RESO JSON file of over 20 MB in byte chunks under 4.5 MB: every sale is stored', async () => {
    const { size, bodies, run } = await upload('sold', soldPath, 'closed-sales.json');
    expect(size).toBeGreaterThan(20 * MEBIBYTE);
    expect(bodies.length).toBeGreaterThanOrEqual(6);
    for (const body of bodies) expect(body).toBeLessThan(NETLIFY_BINARY_BODY_LIMIT);
    expect(run).toMatchObject({ status: 'succeeded', error: null, rows_read: soldCount });
    const [sold] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM town_sold_homes WHERE listing_key LIKE 'BIG%'`,
    );
    expect(sold?.n).toBe(soldCount);
  }, 120_000);
});
