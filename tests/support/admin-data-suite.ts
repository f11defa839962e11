/**
 * What the /admin/data tests (tests/integration/admin-data-*.test.ts) share: the sample ZHVI file
 * and a changed copy, a feed held open (a refresh that is running), the counts and chunk addresses
 * they check, the refusal an upload through the screen's code meets, and a suite whose market
 * refresh reads the feeds a test holds, with the screen's POST and PUT.
 */
import { readFileSync } from 'node:fs';
import { afterEach } from 'vitest';
import type { CsvSource, RefreshPlan } from '../../src/features/market/feeds.server.ts';
import { UploadError } from '../../src/features/market/upload-chunks.ts';
import { clientAs, useAuthSuite, type AuthSuite, type Client } from './auth-suite.ts';
import type { Backend } from './backends.ts';
import { createAgent } from './fixtures.ts';

export const SAMPLE_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8');
/** The sample file with Garden City's latest value changed to $987,654. */
export const CHANGED_ZHVI = SAMPLE_ZHVI.replace(/^(900000,.*,)\d+(\.\d+)?$/m, '$1987654');

/** A feed that sends the header and a row, then waits until released (a refresh that is running). */
export function heldFeed(): { plan: RefreshPlan; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const [header = '', row = ''] = SAMPLE_ZHVI.split('\n');
  const zhvi: CsvSource = {
    origin: 'https://feeds.example/zhvi.csv',
    // eslint-disable-next-line @typescript-eslint/require-await -- an async stream like a download's
    open: async () =>
      (async function* () {
        yield `${header}\n${row}\n`;
        await held;
      })(),
  };
  return { plan: { zhvi }, release };
}

export async function newAdmin(suite: AuthSuite): Promise<Client> {
  const admin = await createAgent(suite.db, { is_admin: true });
  return clientAs(suite, admin.id);
}

export const runCount = async (suite: AuthSuite) =>
  (await suite.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM data_runs`))[0]?.n ?? 0;
export const uploadCount = async (suite: AuthSuite) =>
  (await suite.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM market_uploads`))[0]?.n ?? 0;

/** A chunk's address; `query` defaults to a ZHVI file of the sample's size. */
export const chunkPath = (
  upload: string,
  index: number | string,
  query = `?source=zhvi&name=zhvi.csv&size=${SAMPLE_ZHVI.length}`,
) => `/api/admin/data/uploads/${upload}/chunks/${index}${query}`;

/** The message an upload through the screen's code is refused with. */
export async function refusal(upload: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error: unknown = await upload.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UploadError)) throw new Error(`expected an UploadError, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

/** The suite of the /admin/data tests on `backend` (call inside a describe block). */
export function useAdminDataSuite(backend: Backend) {
  let feeds: () => RefreshPlan = () => ({});
  /** Ends a held feed's run, also when its test failed (the suite waits for background work). */
  let releaseHeld = () => {};
  const suite = useAuthSuite(backend, 'admin-data', { marketFeeds: () => feeds() });
  // Runs before the suite's own afterEach, which waits for the background imports.
  afterEach(() => {
    releaseHeld();
    feeds = () => ({});
  });
  // The requests carry the API's own origin (the CSRF check), as the screen's do.
  const post = (client: Client, path: string, body: string, query = '', type = 'text/csv') =>
    client.request(`${path}${query}`, {
      method: 'POST',
      headers: { 'content-type': type, origin: suite.api.origin },
      body,
    });
  const put = (client: Client, path: string, body: string) =>
    client.request(path, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', origin: suite.api.origin },
      body,
    });
  /** Refresh now reads `plan` until the test ends; then `release` ends its run. */
  const holdFeeds = (plan: RefreshPlan, release: () => void) => {
    releaseHeld = release;
    feeds = () => plan;
  };

  return { suite, post, put, holdFeeds };
}
