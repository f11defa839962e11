import { useEffect, useState } from 'react';
import { filtersFromUrl, urlOfFilters, type UrlFilters } from './lead-filters-url.ts';

const SEARCH_DELAY_MS = 300;

/**
 * The filters as typed: search (name, e-mail or phone); a kind of page (lead-origin.ts) and, with
 * `town`, one town's page; the days; the admin's agent (by id, with the name shown once known) and
 * CRM status.
 */
export type Filters = UrlFilters & { agentName: string };

/** The filters as the list, the export, the deletion and the URL have them (the agent's name is only shown). */
export type SentFilters = UrlFilters;

export const isFiltered = (filters: SentFilters) => Object.values(filters).some(Boolean);

export const NO_FILTERS: Filters = {
  search: '',
  source: '',
  town: '',
  from: '',
  to: '',
  updates: '',
  agent: '',
  agentName: '',
  crm_status: '',
};

/** The Source select's value of one town's page ("town:huntington"), beside the kinds of page. */
export const TOWN_OPTION = 'town:';

/** The filters and page the screen's URL asks for (none before the browser has one). */
const shownInUrl = () => filtersFromUrl(typeof window === 'undefined' ? '' : window.location.search);

/**
 * The table's filters as typed and as sent, and its page, kept in the screen's URL: each settled
 * change is a new history entry (a search once the agent pauses typing, not one a keystroke), and
 * Back or Forward shows that entry's filters and page again.
 */
export function useLeadFilters() {
  const [first] = useState(shownInUrl);
  const [typed, setTyped] = useState<Filters>({ ...first.filters, agentName: '' });
  // The search as sent: the typed one once it has stayed the same for SEARCH_DELAY_MS.
  const [search, setSearch] = useState(first.filters.search);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.search), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed.search]);
  const { agentName, ...sent } = typed;
  const filters: SentFilters = { ...sent, search: search.trim() };
  const filtersKey = urlOfFilters(filters, 1);
  // A page belongs to the filters it was chosen with: other filters start again at page 1.
  const [paging, setPaging] = useState({ key: urlOfFilters(first.filters, 1), page: first.page });
  const page = paging.key === filtersKey ? paging.page : 1;

  const address = urlOfFilters(filters, page);
  const settled = search === typed.search;
  useEffect(() => {
    // Compared as written here: an address typed or pasted with other escapes is the same entry.
    const shown = shownInUrl();
    if (!settled || address === urlOfFilters(shown.filters, shown.page)) return;
    window.history.pushState(null, '', `${window.location.pathname}${address}${window.location.hash}`);
  }, [address, settled]);
  useEffect(() => {
    const onPop = () => {
      const shown = shownInUrl();
      // Read back, not typed: the search is sent at once.
      setTyped({ ...shown.filters, agentName: '' });
      setSearch(shown.filters.search);
      setPaging({ key: urlOfFilters(shown.filters, 1), page: shown.page });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  return {
    typed,
    setTyped,
    agentName,
    filters,
    page,
    setPage: (next: number) => setPaging({ key: filtersKey, page: next }),
  };
}
