/**
 * The RESO Property record as the site maps it: the fields asked for, the schema each record is
 * checked against (a bad one is skipped and reported, never stored), and the shape of a source of
 * closed sales (the RESO Web API, or a file in its response shape).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as z from 'zod';
import { detail } from './reso-error.server.ts';

/** The fields of a closed sale the site stores or matches on; `$select` asks for exactly these. */
export const SOLD_FIELDS = [
  'ListingKey',
  'UnparsedAddress',
  'StreetNumber',
  'StreetName',
  'City',
  'PostalCode',
  'ClosePrice',
  'CloseDate',
  'BedroomsTotal',
  'BathroomsTotalInteger',
  'LivingArea',
  'PropertyType',
  'ListAgentFullName',
  'ListOfficeName',
  'ModificationTimestamp',
  'CountyOrParish',
] as const;

/** Text without NUL characters (PostgreSQL text refuses them) and outer whitespace. */
const cleanText = (value: string): string => value.replaceAll('\u0000', '').trim();
/** An optional text field: absent, null and blank all become null. */
const optionalText = z
  .string()
  .max(1000)
  .nullish()
  .transform((value) => (value == null ? null : cleanText(value) || null));
const optionalCount = (max: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(max)
    .nullish()
    .transform((value) => value ?? null);

/** Edm.Date: `YYYY-MM-DD`, a real calendar day. */
export const isoDate = z.iso.date().refine((value) => {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}, 'Not a calendar date');

/**
 * One Property record as the site uses it, with RESO field names. Bounds keep every value inside
 * its column (beds integer, baths numeric(4,1), sqft integer), so a bad record is skipped here and
 * can never fail the write of the others.
 */
export const resoPropertySchema = z
  .object({
    ListingKey: z.string().transform(cleanText).pipe(z.string().min(1).max(255)),
    /** Not in `$select` (the filter asks for Closed); read when present, as in files. */
    StandardStatus: optionalText,
    UnparsedAddress: optionalText,
    StreetNumber: z
      .union([z.string().max(50), z.number().int().nonnegative()])
      .nullish()
      .transform((value) => (value == null ? null : cleanText(String(value)) || null)),
    StreetName: optionalText,
    City: optionalText,
    PostalCode: optionalText,
    CountyOrParish: optionalText,
    ClosePrice: z
      .number()
      .nonnegative()
      .max(1e11)
      .nullish()
      .transform((value) => value ?? null),
    CloseDate: isoDate,
    BedroomsTotal: optionalCount(1000),
    BathroomsTotalInteger: optionalCount(999),
    LivingArea: z
      .number()
      .nonnegative()
      .max(10_000_000)
      .nullish()
      .transform((value) => (value == null ? null : Math.round(value))),
    PropertyType: optionalText,
    ListAgentFullName: optionalText,
    ListOfficeName: optionalText,
    ModificationTimestamp: z.iso.datetime({ offset: true }),
  })
  .refine((record) => record.UnparsedAddress !== null || record.StreetName !== null, {
    message: 'No address (UnparsedAddress or StreetName)',
    path: ['UnparsedAddress'],
  });
export type ResoProperty = z.infer<typeof resoPropertySchema>;

/** An OData collection page: the records are checked one by one (see resoPropertySchema). */
export const resoPageSchema = z.object({
  value: z.array(z.unknown()),
  '@odata.nextLink': z.string().min(1).nullish(),
});

export interface SkippedRecord {
  /** The record's ListingKey, when it has a readable one. */
  listingKey: string | null;
  /** What was wrong: the failing fields and zod's words. */
  reason: string;
}

export interface ClosedSalesQuery {
  /** CountyOrParish values, e.g. ['Nassau', 'Suffolk']. */
  counties: readonly string[];
  /** `CloseDate ge` this day (YYYY-MM-DD). */
  closedOnOrAfter: string;
  /** Incremental: only records with `ModificationTimestamp gt` this instant. */
  since?: Date;
  /** Called for every record that fails the schema (it is not yielded). */
  onSkip?: (skipped: SkippedRecord) => void;
}

/** Something closed sales can be read from: the RESO Web API, or a file in its response shape. */
export interface ClosedSalesSource {
  /** Where the records come from (a URL or a path), for the run record. */
  readonly origin: string;
  closedSales(query: ClosedSalesQuery): AsyncIterable<ResoProperty>;
}

/** Zod's issues in one line: `ClosePrice: expected number, received string; …`. */
function issuesText(error: z.ZodError): string {
  return detail(
    error.issues.map((issue) => `${issue.path.map(String).join('.') || 'record'}: ${issue.message}`).join('; '),
  );
}

/**
 * How long a file's records (or a page's) are checked before the event loop gets a turn (timers,
 * other requests): checking a million records at once held the embedded-database server for
 * minutes (security audit, finding 10). The clock is read every RECORDS_PER_CLOCK_READ records.
 */
export const TURN_MS = 20;
const RECORDS_PER_CLOCK_READ = 64;

/** `items` one by one, letting the event loop run after every TURN_MS of work. */
export async function* inTurns(items: readonly unknown[]): AsyncGenerator<unknown> {
  let turnStarted = performance.now();
  for (let index = 0; index < items.length; index += 1) {
    if (index % RECORDS_PER_CLOCK_READ === 0 && performance.now() - turnStarted >= TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
    yield items[index];
  }
}

/** Fields resoPropertySchema requires: a record without one is skipped before zod builds its error. */
const REQUIRED_FIELDS = ['ListingKey', 'CloseDate', 'ModificationTimestamp'] as const;

/**
 * Why `raw` is no record, found without zod (a number, null, an array, an object missing a required
 * field), or undefined when the schema must decide.
 */
function plainlyNotARecord(raw: unknown): SkippedRecord | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const received = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return { listingKey: null, reason: `record: expected an object, received ${received}` };
  }
  const fields = new Map<string, unknown>(Object.entries(raw));
  const missing = REQUIRED_FIELDS.filter((field) => fields.get(field) == null);
  if (missing.length === 0) return undefined;
  const key = fields.get('ListingKey');
  return {
    listingKey: typeof key === 'string' && key !== '' ? key : null,
    reason: missing.map((field) => `${field}: missing`).join('; '),
  };
}

/** Checks one raw record; a failure goes to `onSkip` and answers undefined. */
export function parseResoRecord(raw: unknown, onSkip?: (skipped: SkippedRecord) => void): ResoProperty | undefined {
  // Plainly no record (`0`, `{}`): skipped cheaply, as a file of a million of them must be.
  const plainly = plainlyNotARecord(raw);
  if (plainly) {
    onSkip?.(plainly);
    return undefined;
  }
  const parsed = resoPropertySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const key = z.object({ ListingKey: z.string().min(1) }).safeParse(raw);
  onSkip?.({ listingKey: key.success ? key.data.ListingKey : null, reason: issuesText(parsed.error) });
  return undefined;
}
