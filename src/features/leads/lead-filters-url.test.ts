import { describe, expect, it } from 'vitest';
import { filtersFromUrl, urlOfFilters } from './lead-filters-url.ts';

const NONE = { search: '', source: '', town: '', from: '', to: '', updates: '', agent: '', crm_status: '' };

describe('the leads filters in the URL', () => {
  it('writes only the filters given, and the page after the first', () => {
    expect(urlOfFilters(NONE, 1)).toBe('');
    expect(urlOfFilters({ ...NONE, search: 'dana lo', source: 'town', town: 'huntington' }, 2)).toBe(
      '?search=dana+lo&source=town&town=huntington&page=2',
    );
  });

  it('reads back what it wrote', () => {
    const filters = {
      ...NONE,
      search: 'a&b=c',
      from: '2026-01-01',
      to: '2026-01-31',
      updates: 'active',
      agent: '7',
      crm_status: 'none',
    };
    expect(filtersFromUrl(urlOfFilters(filters, 3))).toEqual({ filters, page: 3 });
  });

  it('reads a cut-short or hand-typed address as page 1 and no filter, never throwing', () => {
    expect(filtersFromUrl('')).toEqual({ filters: NONE, page: 1 });
    expect(filtersFromUrl('?page=zero&search=%20&other=x')).toEqual({ filters: NONE, page: 1 });
    expect(filtersFromUrl(`?page=-2&search=${'x'.repeat(500)}`)).toEqual({ filters: NONE, page: 1 });
  });
});
