/** Closed sales from a file in the RESO Web API's response shape, for sites without MLS credentials. */
import * as z from 'zod';
import { ResoError } from './reso-error.server.ts';
import { inTurns, parseResoRecord, resoPageSchema, type ClosedSalesSource } from './reso-records.server.ts';

const isPageShaped = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value;

/**
 * A file's records: a page's `value`, an array of pages' values, or a bare array of records. An
 * array is checked against the pages' schema only when every element looks like a page, which
 * stops at the first element that does not: a million records are never each given a zod error.
 */
function fileRecords(json: unknown, origin: string): readonly unknown[] {
  if (Array.isArray(json)) {
    const pages = json.length > 0 && json.every(isPageShaped) ? z.array(resoPageSchema).safeParse(json) : undefined;
    return pages?.success ? pages.data.flatMap((page) => page.value) : json;
  }
  const page = resoPageSchema.safeParse(json);
  if (!page.success)
    throw new ResoError(`${origin} is not a RESO response ({ "value": [...] })`, { kind: 'malformed' });
  return page.data.value;
}

/**
 * Closed sales from a file in the RESO response shape (`{ "value": [...] }`, or an array of such
 * pages, or a bare array of records), for sites without MLS credentials. The query is applied
 * here as the server would: status Closed (when the record says), CloseDate, county (when the
 * record says) and ModificationTimestamp. A file that is not one of these shapes is a ResoError.
 */
export function resoFileSource(json: unknown, origin: string): ClosedSalesSource {
  const records = fileRecords(json, origin);
  return {
    origin,
    async *closedSales({ counties, closedOnOrAfter, since, onSkip }) {
      const wanted = new Set(counties.map((county) => county.toLowerCase()));
      for await (const raw of inTurns(records)) {
        const record = parseResoRecord(raw, onSkip);
        if (!record) continue;
        if (record.StandardStatus !== null && record.StandardStatus !== 'Closed') continue;
        if (record.CloseDate < closedOnOrAfter) continue;
        if (record.CountyOrParish !== null && !wanted.has(record.CountyOrParish.toLowerCase())) continue;
        if (since && Date.parse(record.ModificationTimestamp) <= since.getTime()) continue;
        yield record;
      }
    },
  };
}
