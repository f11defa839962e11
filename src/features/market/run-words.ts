/**
 * How a market-data run is told to the admin (newcomer audit minor 31): a failure in words that say
 * what could not be read and that nothing changed (not "fetch failed"), and where the data came from
 * without the server's file-system paths (a file's name, "sample data", an upload, a feed's host).
 */
import type { DataRun } from './data-admin.ts';

type DataSource = DataRun['source'];

const FEEDS: Record<DataSource, string> = {
  zhvi: 'Zillow’s research data (home values)',
  inventory: 'Zillow’s research data (inventory)',
  sold: 'the MLS feed of sold homes (RESO Web API)',
};

export const NOTHING_CHANGED = 'Nothing was changed; the last good data stays.';

/** Node's codes for an address that could not be reached at all (undici wraps them in "fetch failed"). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

function codeOf(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth += 1) {
    if ('code' in at && typeof at.code === 'string') return at.code;
  }
  return undefined;
}

const isNetworkError = (error: unknown): boolean =>
  NETWORK_CODES.has(codeOf(error) ?? '') || (error instanceof TypeError && error.message === 'fetch failed');

/** The words a failed run is recorded with, for the runs table and the screen's notice. */
export function runFailureWords(source: DataSource, origin: string, error: unknown): string {
  const feed = origin.startsWith(UPLOADED) ? `the uploaded file ${origin.slice(UPLOADED.length)}` : FEEDS[source];
  if (isNetworkError(error)) return `Could not reach ${feed} (network error). ${NOTHING_CHANGED}`;
  const message = error instanceof Error ? error.message : String(error);
  const status = /answered (\d{3})\b/.exec(message)?.[1];
  if (status) return `${capital(feed)} answered with an error (HTTP ${status}). ${NOTHING_CHANGED}`;
  return `Could not import ${feed}: ${message.replace(/\.$/, '')}. ${NOTHING_CHANGED}`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The origin an uploaded file's run is recorded with (src/features/market/data-admin.server.ts). */
export const UPLOADED = 'Uploaded file ';

/** Where a run's data came from, as the runs table shows it: never a path on the server. */
export function shownOrigin(origin: string): string {
  if (origin.startsWith(UPLOADED)) return `Upload: ${origin.slice(UPLOADED.length)}`;
  const name = (text: string) => text.split(/[\\/]/).filter(Boolean).pop() ?? text;
  if (/^https?:\/\//.test(origin)) {
    try {
      const url = new URL(origin);
      return `${name(url.pathname) || url.hostname} from ${url.hostname}`;
    } catch {
      return 'a feed';
    }
  }
  if (/(^|[\\/])data[\\/]sample[\\/]/.test(origin)) return `Sample data (${name(origin)})`;
  return `File ${name(origin)}`;
}

/** How many towns the runs table names in a run's line; the rest are behind its details. */
export const TOWNS_NAMED = 3;

/**
 * Which towns a finished run updated, in words (minor 31): "Updated 12 towns: Babylon, Bay Shore,
 * Brentwood and 9 more", or that it changed none. `more` holds every name when some were left off
 * the line, for the full list behind it. A run recorded before the names were kept gives its count.
 */
export function updatedTownsWords(run: Pick<DataRun, 'towns_updated' | 'updated_towns'>): {
  words: string;
  more: string[];
} {
  const names = run.updated_towns;
  const total = Math.max(run.towns_updated, names.length);
  if (total === 0) return { words: 'No town’s figures changed', more: [] };
  const counted = `Updated ${total.toLocaleString('en-US')} ${total === 1 ? 'town' : 'towns'}`;
  if (names.length === 0) return { words: counted, more: [] };
  if (names.length <= TOWNS_NAMED) return { words: `${counted}: ${listed(names)}`, more: [] };
  const left = total - TOWNS_NAMED;
  return { words: `${counted}: ${names.slice(0, TOWNS_NAMED).join(', ')} and ${left} more`, more: names };
}

/** "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
