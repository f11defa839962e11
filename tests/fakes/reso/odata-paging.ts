/**
 * One page of the fake RESO server's `GET /odata/Property`: `$filter` applied, `$select`,
 * `$orderby`, `$top` (capped at the server's page size) and `$skip`, and the `@odata.nextLink`
 * that carries the next `$skip`. Bad options throw ODataError (the route answers 400).
 */
import { ODataError, type Answer } from './answers.ts';
import { DATE_TIME, matches, parseFilter } from './odata-filter.ts';
import { KNOWN_FIELDS, type ResoRecord } from './records.ts';

function fieldList(text: string, option: string): string[] {
  const fields = text.split(',').map((field) => field.trim());
  for (const field of fields) {
    if (!KNOWN_FIELDS.has(field)) {
      throw new ODataError(`Could not find a property named '${field}' on type 'Property' in ${option}.`);
    }
  }
  return fields;
}

function parseOrderBy(text: string): { field: string; descending: boolean }[] {
  return text.split(',').map((part) => {
    const [field = '', direction = 'asc', ...extra] = part.trim().split(/\s+/);
    if (extra.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw new ODataError(`Bad $orderby clause '${part.trim()}'`);
    }
    fieldList(field, '$orderby');
    return { field, descending: direction === 'desc' };
  });
}

function sortKey(value: unknown): number | string {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const time = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
    return Number.isNaN(time) ? value : time;
  }
  return '';
}

function nonNegativeInteger(text: string | null, option: string): number | null {
  if (text === null) return null;
  if (!/^\d+$/.test(text)) throw new ODataError(`${option} must be a non-negative integer`);
  return Number(text);
}

/** OData query options in the request's own order, `$skip` replaced (for the nextLink). */
function withSkip(url: URL, skip: number): string {
  const parts = [...url.searchParams.entries()].filter(([key]) => key !== '$skip');
  parts.push(['$skip', String(skip)]);
  return `${url.origin}${url.pathname}?${parts.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

/** The page `url` asks for out of `records`, at most `maxTop` of them; `origin` is the server's. */
export function answerPage(url: URL, records: readonly ResoRecord[], origin: string, maxTop: number): Answer {
  const query = url.searchParams;
  const filter = query.get('$filter');
  const expression = filter === null ? undefined : parseFilter(filter);
  const select = query.get('$select');
  const fields = select === null ? undefined : fieldList(select, '$select');
  const orderby = query.get('$orderby');
  const ordering = orderby === null ? [] : parseOrderBy(orderby);
  const top = Math.min(nonNegativeInteger(query.get('$top'), '$top') ?? maxTop, maxTop);
  const skip = nonNegativeInteger(query.get('$skip'), '$skip') ?? 0;

  const found = expression ? records.filter((record) => matches(record, expression)) : [...records];
  found.sort((a, b) => {
    for (const { field, descending } of ordering) {
      const left = sortKey(a[field]);
      const right = sortKey(b[field]);
      if (left !== right) return (left < right ? -1 : 1) * (descending ? -1 : 1);
    }
    return String(a.ListingKey).localeCompare(String(b.ListingKey));
  });
  const slice = found.slice(skip, skip + top);
  const value = slice.map((record) =>
    fields ? Object.fromEntries(fields.map((field) => [field, record[field] ?? null])) : record,
  );
  const more = skip + slice.length < found.length && slice.length > 0;
  return {
    status: 200,
    body: JSON.stringify({
      '@odata.context': `${origin}/odata/$metadata#Property${fields ? `(${fields.join(',')})` : ''}`,
      value,
      ...(more ? { '@odata.nextLink': withSkip(url, skip + slice.length) } : {}),
    }),
  };
}
