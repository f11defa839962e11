/**
 * The leads table's filters and page in the screen's own URL (?search=…&source=…&page=2), so that a
 * reload, a bookmark or Back shows the same leads. The names are the list API's (lead-list.ts), so
 * the address bar reads like the request the table sends.
 */
import * as z from 'zod/mini';
import { LEAD_LIST } from './public/lead-list.ts';

/** The filters the table sends, in the order they are written to the URL. */
export const URL_FILTERS = ['search', 'source', 'town', 'from', 'to', 'updates', 'agent', 'crm_status'] as const;

export type UrlFilter = (typeof URL_FILTERS)[number];
export type UrlFilters = Record<UrlFilter, string>;

/**
 * One filter of a URL someone may have typed or cut short: kept as text (the list's API checks it
 * and the table says what is wrong), capped so a pasted address cannot fill the search box.
 */
const filterText = z.pipe(
  z.catch(z.string().check(z.maxLength(LEAD_LIST.maxSearch)), ''),
  z.transform((value) => value.trim()),
);

const pageOfUrl = z.catch(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1);

/** The filters and page a screen's query string asks for; missing or unreadable ones are empty / page 1. */
export function filtersFromUrl(search: string): { filters: UrlFilters; page: number } {
  const params = new URLSearchParams(search);
  const read = (key: UrlFilter) => filterText.parse(params.get(key) ?? '');
  return {
    filters: {
      search: read('search'),
      source: read('source'),
      town: read('town'),
      from: read('from'),
      to: read('to'),
      updates: read('updates'),
      agent: read('agent'),
      crm_status: read('crm_status'),
    },
    page: pageOfUrl.parse(params.get('page') ?? 1),
  };
}

/** The query string (with its `?`, or empty) of the filters and page; empty filters and page 1 are left out. */
export function urlOfFilters(filters: UrlFilters, page: number): string {
  const params = new URLSearchParams();
  for (const key of URL_FILTERS) {
    if (filters[key]) params.set(key, filters[key]);
  }
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}
