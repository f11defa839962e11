import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { formatPhone, telHref } from '../../ui/phone.ts';
import { ApiError, getJson, sendJson } from '../accounts/account-query.ts';
import { canSync } from '../crm/fub-integration.ts';
import { FUB_QUERY_KEY, useFubIntegration } from '../crm/fub-query.ts';
import { leadSyncAnswerSchema, syncMessage, type LeadSyncResult } from '../crm/lead-sync.ts';
import { LeadSyncHistoryDialog, SyncBadge } from '../crm/LeadSyncHistory.tsx';
import { LEAD_ORIGINS, ORIGIN_LABELS } from './lead-origin.ts';
import {
  adminLeadListResponseSchema,
  clearLeadsResponseSchema,
  CRM_STATUS_FILTERS,
  LEAD_LIST,
  LEAD_TIME_ZONE,
  leadListResponseSchema,
  leadQueryString,
  type AdminLeadRow,
  type LeadRow,
} from './lead-list.ts';
import { filtersFromUrl, urlOfFilters, type UrlFilters } from './lead-filters-url.ts';
import { useLeadExport } from './use-lead-export.ts';

/**
 * Where a leads table gets its rows: the dashboard shows the agent's own (/api/leads); the admin
 * area can show another scope through the same table with its own paths.
 */
export interface LeadsSource {
  /** The table's queries start with this key; a deletion invalidates them all. */
  queryKey: readonly string[];
  /**
   * GET lists a page (the query of leadListQuerySchema); DELETE, with the same filters, deletes the
   * scope's leads that pass them (every one without a filter).
   */
  listPath: string;
  /** GET answers the CSV of every lead passing the filters, a page at a time (lead-export.ts). */
  exportPath: string;
  caption: string;
  /** What the table says when there is no lead at all. */
  emptyMessage: ReactNode;
  /**
   * The caller's own leads: the table shows each one's Follow Up Boss sync (and its history) and,
   * when the caller's integration can sync, the controls to send them.
   */
  crm?: boolean;
  /**
   * Every agent's leads (an admin's list, adminLeadListQuerySchema): the table adds each lead's
   * agent (a button that shows only that agent's leads), a CRM status filter and column, and a
   * Timeline button; there is no deletion.
   */
  admin?: { onTimeline: (lead: AdminLeadRow) => void };
}

const SEARCH_DELAY_MS = 300;

/**
 * The filters as typed: search (name, e-mail or phone); a kind of page (lead-origin.ts) and, with
 * `town`, one town's page; the days; the admin's agent (by id, with the name shown once known) and
 * CRM status.
 */
type Filters = UrlFilters & { agentName: string };

/** The filters as the list, the export, the deletion and the URL have them (the agent's name is only shown). */
type SentFilters = UrlFilters;

const isFiltered = (filters: SentFilters) => Object.values(filters).some(Boolean);

const NO_FILTERS: Filters = {
  search: '',
  source: '',
  town: '',
  from: '',
  to: '',
  agent: '',
  agentName: '',
  crm_status: '',
};

/** The Source select's value of one town's page ("town:huntington"), beside the kinds of page. */
const TOWN_OPTION = 'town:';

const CRM_STATUS_LABELS: Record<(typeof CRM_STATUS_FILTERS)[number], string> = {
  none: 'Never sent',
  queued: 'Queued',
  sending: 'Sending',
  synced: 'Synced',
  ignored: 'Ignored (lead flow archived)',
  stopped: 'Stopped (key refused)',
  rejected: 'Rejected',
};

/** The admin's row of a lead (with its agent), or null on the agent's own list. */
const adminRow = (lead: LeadRow | AdminLeadRow): AdminLeadRow | null => ('agent_name' in lead ? lead : null);

const shownDay = new Intl.DateTimeFormat('en-US', { timeZone: LEAD_TIME_ZONE, dateStyle: 'medium' });
const shownTime = new Intl.DateTimeFormat('en-US', { timeZone: LEAD_TIME_ZONE, timeStyle: 'short' });

/** The filters and page the screen's URL asks for (none before the browser has one). */
const shownInUrl = () => filtersFromUrl(typeof window === 'undefined' ? '' : window.location.search);

/**
 * The table's filters as typed and as sent, and its page, kept in the screen's URL: each settled
 * change is a new history entry (a search once the agent pauses typing, not one a keystroke), and
 * Back or Forward shows that entry's filters and page again.
 */
function useLeadFilters() {
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

/**
 * The leads table and its states (loading, error with Retry, empty, list), with search, source and
 * date filters (kept in the URL), paging, CSV export and, below the table, the deletion of the leads
 * it matches behind a confirmation dialog. The server filters and pages; the previous page stays on
 * screen while the next loads.
 */
export function LeadsTable({ source }: { source: LeadsSource }) {
  const { typed, setTyped, agentName: clickedAgentName, filters, page, setPage } = useLeadFilters();
  const query = { ...filters, page, per_page: LEAD_LIST.perPage };
  const filtered = isFiltered(filters);

  const list = useQuery({
    queryKey: [...source.queryKey, query],
    queryFn: () =>
      getJson(
        `${source.listPath}${leadQueryString(query)}`,
        source.admin ? adminLeadListResponseSchema : leadListResponseSchema,
      ),
    placeholderData: keepPreviousData,
  });

  // No lead at all: nothing to export or clear.
  const nothingAtAll = !filtered && list.data?.total === 0;
  // The admin's chosen agent by name: as clicked, or (after a reload or Back) as the rows say.
  const agentName = clickedAgentName || (list.data?.leads.flatMap((lead) => adminRow(lead)?.agent_name ?? [])[0] ?? '');
  const caption =
    source.admin && typed.agent ? `Leads of ${agentName || 'the chosen agent'}, newest first` : source.caption;

  // The filters the deletion was confirmed for (null: no dialog open).
  const [confirming, setConfirming] = useState<SentFilters | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const queryClient = useQueryClient();
  const clearAll = useMutation({
    mutationFn: (chosen: SentFilters) =>
      sendJson('DELETE', `${source.listPath}${leadQueryString(chosen)}`, clearLeadsResponseSchema),
    onSuccess: ({ deleted }, chosen) => {
      setConfirming(null);
      setOutcome({
        tone: 'success',
        // The spec's words for Clear All; a filtered deletion says how many went.
        message: isFiltered(chosen)
          ? `${deleted} ${deleted === 1 ? 'lead' : 'leads'} deleted.`
          : 'All leads cleared successfully!',
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: source.queryKey }),
  });

  const crm = useLeadSync(source);
  const csv = useLeadExport(source.exportPath);

  const change = (field: keyof Filters) => (value: string) => {
    setOutcome(null);
    if (field === 'source') {
      // One select chooses a kind of page or one town's page.
      const town = value.startsWith(TOWN_OPTION) ? value.slice(TOWN_OPTION.length) : '';
      setTyped((current) => ({ ...current, source: town ? 'town' : value, town }));
      return;
    }
    setTyped((current) => ({ ...current, [field]: value }));
  };
  const showAgent = (lead: AdminLeadRow | null) => {
    setOutcome(null);
    setTyped((current) => ({
      ...current,
      agent: lead ? String(lead.agent_id) : '',
      agentName: lead?.agent_name ?? '',
    }));
  };

  return (
    <div className="leads">
      <div className="leads-toolbar">
        <LeadFilters
          filters={typed}
          onChange={change}
          admin={source.admin !== undefined}
          towns={list.data?.towns ?? []}
        />
        {nothingAtAll ? null : (
          <div className="nav-actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={csv.busy}
              onClick={() => {
                setOutcome(null);
                csv.start(filters);
              }}
            >
              Export CSV
            </button>
          </div>
        )}
      </div>
      {typed.agent ? (
        <p className="leads-agent-filter">
          Showing the leads of <strong>{agentName || 'the chosen agent'}</strong>{' '}
          <button type="button" className="button button-secondary button-small" onClick={() => showAgent(null)}>
            Show every agent’s leads
          </button>
        </p>
      ) : null}
      {crm?.canSync && list.data && list.data.total > 0 ? (
        <div className="leads-sync-bar nav-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={crm.selected.size === 0 || crm.syncing}
            onClick={() => crm.sync([...crm.selected])}
          >
            {crm.syncing ? 'Syncing…' : `Sync selected (${crm.selected.size})`}
          </button>
        </div>
      ) : null}
      <p role="status" className="leads-export-progress">
        {csv.progress}
      </p>
      <Notice tone="error" message={csv.error} />
      <Notice tone="success" message={outcome?.tone === 'success' ? outcome.message : null} />
      <Notice tone="error" message={outcome?.tone === 'error' ? outcome.message : null} />
      {crm ? (
        <>
          <Notice tone="success" message={crm.outcome?.tone === 'success' ? crm.outcome.message : null} />
          <Notice tone="error" message={crm.outcome?.tone === 'error' ? crm.outcome.message : null} />
        </>
      ) : null}
      {list.isPending ? (
        <p role="status">Loading leads…</p>
      ) : list.isError ? (
        <div className="leads-state">
          <p role="alert" className="leads-failed">
            Failed to fetch leads
            {list.error instanceof ApiError && list.error.status === 400 ? `: ${list.error.message}` : ''}
          </p>
          <button type="button" className="button button-primary" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : list.data.total === 0 ? (
        <div className="leads-state">
          {filtered ? (
            <>
              <p>No leads match these filters.</p>
              <button type="button" className="button button-secondary" onClick={() => setTyped(NO_FILTERS)}>
                Show all leads
              </button>
            </>
          ) : (
            source.emptyMessage
          )}
        </div>
      ) : (
        <>
          <LeadRows
            caption={caption}
            leads={list.data.leads}
            busy={list.isPlaceholderData}
            crm={crm}
            admin={source.admin ? { ...source.admin, onAgent: showAgent } : null}
          />
          <Paging
            page={list.data.page}
            perPage={list.data.per_page}
            total={list.data.total}
            shown={list.data.leads.length}
            busy={list.isPlaceholderData}
            onPage={setPage}
          />
          {source.admin ? null : (
            <DeleteLeads
              filtered={filtered}
              count={list.isPlaceholderData ? undefined : list.data.total}
              onDelete={() => {
                setOutcome(null);
                clearAll.reset();
                setConfirming(filters);
              }}
            />
          )}
        </>
      )}
      {crm ? <LeadSyncHistoryDialog lead={crm.history} onClose={() => crm.showHistory(null)} /> : null}
      <DeleteLeadsDialog
        filters={confirming}
        source={source}
        clearing={clearAll.isPending}
        // The spec's words for a failed Clear All, shown in the dialog, which stays open.
        error={
          clearAll.isError
            ? clearAll.error instanceof ApiError
              ? 'Failed to clear leads'
              : 'Error clearing leads'
            : null
        }
        onCancel={() => setConfirming(null)}
        onConfirm={(chosen) => clearAll.mutate(chosen)}
      />
    </div>
  );
}

type Outcome = { tone: 'success' | 'error'; message: string } | null;

/** The sync controls' state for a table of the caller's own leads (null for any other scope). */
interface LeadSyncControls {
  /** The integration is active and has a key (the spec): the Sync buttons and selection show. */
  canSync: boolean;
  selected: ReadonlySet<number>;
  select: (leadId: number, selected: boolean) => void;
  sync: (leadIds: number[]) => void;
  syncing: boolean;
  /** The leads of the request in flight. */
  sending: ReadonlySet<number>;
  outcome: Outcome;
  history: LeadRow | null;
  showHistory: (lead: LeadRow | null) => void;
}

/** Only leads still to send: a synced one is never sent again, one being sent is on its way. */
const canSend = (lead: LeadRow) =>
  lead.synced_to_fub === 0 && lead.crm_status !== 'synced' && lead.crm_status !== 'sending';

/** The spec's message, and for a failure why: the leads left waiting are retried on their own. */
function syncOutcome(requested: number, synced: number, results: LeadSyncResult[]): Outcome {
  const message = syncMessage(requested, synced);
  if (message.ok) return { tone: 'success', message: message.text };
  const waiting = results.filter((result) => result.status === 'waiting').length;
  const reasons = [
    ...(synced > 0 ? [`${synced} of ${requested} synced`] : []),
    ...(waiting > 0 ? [`${waiting} waiting, retried automatically`] : []),
    ...new Set(results.flatMap((result) => (result.status !== 'synced' && result.error ? [result.error] : []))),
  ];
  return { tone: 'error', message: reasons.length > 0 ? `${message.text}: ${reasons.join('; ')}` : message.text };
}

function useLeadSync(source: LeadsSource): LeadSyncControls | null {
  const integration = useFubIntegration(source.crm === true);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [history, showHistory] = useState<LeadRow | null>(null);
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (leadIds: number[]) =>
      sendJson('POST', '/api/leads/sync-fub', leadSyncAnswerSchema, { lead_ids: leadIds }),
    onMutate: () => setOutcome(null),
    onSuccess: (answer, leadIds) => {
      setOutcome(syncOutcome(leadIds.length, answer.synced, answer.results));
      setSelected(new Set());
    },
    onError: (error, leadIds) =>
      setOutcome({
        tone: 'error',
        message:
          error instanceof ApiError
            ? `${syncMessage(leadIds.length, 0).text}: ${error.message}`
            : 'Error syncing to Follow Up Boss',
      }),
    // The rows' sync state and the integration's counts have changed.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: source.queryKey }),
        queryClient.invalidateQueries({ queryKey: FUB_QUERY_KEY }),
      ]),
  });
  if (!source.crm) return null;
  return {
    canSync: canSync(integration.data),
    selected,
    select: (leadId, on) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(leadId);
        else next.delete(leadId);
        return next;
      }),
    sync: (leadIds) => send.mutate(leadIds),
    syncing: send.isPending,
    sending: new Set(send.isPending ? send.variables : []),
    outcome,
    history,
    showHistory,
  };
}

function LeadFilters({
  filters,
  onChange,
  admin,
  towns,
}: {
  filters: Filters;
  onChange: (field: keyof Filters) => (value: string) => void;
  admin: boolean;
  /** The town pages the leads came from (the list's answer says which). */
  towns: readonly { slug: string; name: string }[];
}) {
  const id = useId();
  return (
    <div className="leads-filters" role="search" aria-label="Filter leads">
      <div className="field leads-search">
        <label htmlFor={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          type="search"
          placeholder="Name, email or phone"
          maxLength={LEAD_LIST.maxSearch}
          value={filters.search}
          onChange={(event) => onChange('search')(event.target.value)}
        />
      </div>
      <div className="field leads-source">
        <label htmlFor={`${id}-source`}>Source</label>
        <select
          id={`${id}-source`}
          value={filters.town ? `${TOWN_OPTION}${filters.town}` : filters.source}
          onChange={(event) => onChange('source')(event.target.value)}
        >
          <option value="">All sources</option>
          {LEAD_ORIGINS.map((value) => (
            <option key={value} value={value}>
              {ORIGIN_LABELS[value]}
            </option>
          ))}
          {towns.length > 0 ? (
            <optgroup label="One town's page">
              {towns.map((town) => (
                <option key={town.slug} value={`${TOWN_OPTION}${town.slug}`}>
                  {town.name}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-from`}>From</label>
        <input
          id={`${id}-from`}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(event) => onChange('from')(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>To</label>
        <input
          id={`${id}-to`}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(event) => onChange('to')(event.target.value)}
        />
      </div>
      {admin ? (
        <div className="field leads-source">
          <label htmlFor={`${id}-crm`}>CRM status</label>
          <select
            id={`${id}-crm`}
            value={filters.crm_status}
            onChange={(event) => onChange('crm_status')(event.target.value)}
          >
            <option value="">Any status</option>
            {CRM_STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {CRM_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}

function LeadRows(props: {
  caption: string;
  leads: (LeadRow | AdminLeadRow)[];
  busy: boolean;
  crm: LeadSyncControls | null;
  admin: { onTimeline: (lead: AdminLeadRow) => void; onAgent: (lead: AdminLeadRow) => void } | null;
}) {
  const { caption, leads, busy, crm, admin } = props;
  const captionId = useId();
  const selecting = crm?.canSync === true;
  return (
    // On a phone each lead is a block of labelled lines (see .leads-table in global.css); the region
    // scrolls sideways should a long word still not fit (focusable, so keys scroll it).
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="leads-table" aria-busy={busy}>
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            {selecting ? (
              <th scope="col">
                <span className="visually-hidden">Select to sync</span>
              </th>
            ) : null}
            <th scope="col">Name</th>
            {admin ? <th scope="col">Agent</th> : null}
            <th scope="col">Email</th>
            <th scope="col">Phone</th>
            {/* The admin's table has the agent instead, to fit (the CSV has both). */}
            {admin ? null : <th scope="col">Address</th>}
            <th scope="col">Source</th>
            <th scope="col">Message</th>
            <th scope="col">Date</th>
            <th scope="col">Estimate</th>
            {crm ? <th scope="col">FUB Synced</th> : null}
            {admin ? <th scope="col">CRM</th> : null}
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => {
            const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
            const ofAgent = admin ? adminRow(lead) : null;
            return (
              <tr key={lead.id}>
                {selecting ? (
                  <td data-label="Select" className="nowrap leads-select">
                    {canSend(lead) ? (
                      <input
                        type="checkbox"
                        aria-label={`Select ${name} to sync`}
                        checked={crm.selected.has(lead.id)}
                        onChange={(event) => crm.select(lead.id, event.target.checked)}
                      />
                    ) : null}
                  </td>
                ) : null}
                <th scope="row">{name}</th>
                {admin && ofAgent ? (
                  <td data-label="Agent">
                    <button type="button" className="link-button" onClick={() => admin.onAgent(ofAgent)}>
                      {ofAgent.agent_name}
                      <span className="visually-hidden"> (show only this agent’s leads)</span>
                    </button>
                  </td>
                ) : null}
                <td data-label="Email" className="leads-email">
                  <a href={`mailto:${lead.email}`}>
                    <EmailText email={lead.email} />
                  </a>
                </td>
                <td data-label="Phone" className="nowrap">
                  {lead.phone ? <a href={telHref(lead.phone)}>{formatPhone(lead.phone)}</a> : '—'}
                </td>
                {admin ? null : <td data-label="Address">{lead.address ?? '—'}</td>}
                <td data-label="Source">{lead.source_label}</td>
                {/* The seller's own words, as text (React escapes them); line breaks kept by the CSS. */}
                <td data-label="Message" className="leads-message">
                  {lead.message ?? '—'}
                </td>
                <td data-label="Date" className="nowrap">
                  <time dateTime={lead.created_at}>
                    {shownDay.format(new Date(lead.created_at))}{' '}
                    <span className="leads-time">{shownTime.format(new Date(lead.created_at))}</span>
                  </time>
                </td>
                <td data-label="Estimate" className="nowrap">
                  {lead.estimate_uuid ? (
                    <a href={`/estimate/${lead.estimate_uuid}`} target="_blank" rel="noopener">
                      View estimate<span className="visually-hidden"> of {name} (opens in a new tab)</span>
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                {crm ? (
                  <td data-label="FUB Synced" className="leads-sync">
                    <SyncBadge lead={lead} />
                    <span className="leads-sync-actions">
                      {crm.canSync && canSend(lead) ? (
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={crm.syncing}
                          onClick={() => crm.sync([lead.id])}
                        >
                          {crm.sending.has(lead.id) ? 'Syncing…' : 'Sync'}
                          <span className="visually-hidden"> {name}</span>
                        </button>
                      ) : null}
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => crm.showHistory(lead)}
                      >
                        CRM<span className="visually-hidden"> history of {name}</span>
                      </button>
                    </span>
                  </td>
                ) : null}
                {admin && ofAgent ? (
                  <td data-label="CRM" className="leads-sync">
                    <SyncBadge lead={ofAgent} />
                    <span className="leads-sync-actions">
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => admin.onTimeline(ofAgent)}
                      >
                        Timeline<span className="visually-hidden"> of {name}</span>
                      </button>
                    </span>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * An e-mail address that may wrap only before its @ and after its dots (`<wbr>`), so a narrow column
 * shows "morgan.lee" / "@example.com" rather than cutting a word in two; a part longer than the
 * column still wraps (overflow-wrap on the table's cells) rather than widening the table.
 */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          <span>{part}</span>
        </Fragment>
      ))}
    </>
  );
}

function Paging(props: {
  page: number;
  perPage: number;
  total: number;
  shown: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const { page, perPage, total, shown, busy, onPage } = props;
  const first = (page - 1) * perPage + 1;
  return (
    <nav className="leads-paging" aria-label="Pages of leads">
      <p aria-live="polite">
        {shown > 0 ? `Showing ${first}–${first + shown - 1} of ${total}` : `No leads on this page (${total} in all)`}
      </p>
      <div className="nav-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || page * perPage >= total}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}

/**
 * Deleting leads, kept apart from the filters (where a button reads as "clear the filters") and
 * named for what it does: the leads the table matches, or every lead without a filter.
 */
function DeleteLeads(props: { filtered: boolean; count: number | undefined; onDelete: () => void }) {
  const { filtered, count, onDelete } = props;
  const headingId = useId();
  const some = count === undefined ? '' : ` ${count}`;
  return (
    <section className="leads-delete" aria-labelledby={headingId}>
      <h2 id={headingId}>Delete leads</h2>
      <p>
        {filtered
          ? 'Deletes only the leads that match the search and filters above; your other leads stay.'
          : 'Deletes every lead of yours.'}{' '}
        This cannot be undone: export a CSV first to keep a copy.
      </p>
      <button type="button" className="button button-danger-quiet" onClick={onDelete}>
        {filtered
          ? count === 1
            ? 'Delete this 1 lead'
            : `Delete these${some} leads`
          : count === 1
            ? 'Delete your 1 lead'
            : `Delete all${some} leads`}
      </button>
    </section>
  );
}

/**
 * The spec's confirmation: says how many leads will go before they do, counted afresh by the list's
 * own query with the filters the deletion will send, so the number shown is the number deleted.
 */
function DeleteLeadsDialog(props: {
  filters: SentFilters | null;
  source: LeadsSource;
  clearing: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (filters: SentFilters) => void;
}) {
  const { filters, source, clearing, error, onCancel, onConfirm } = props;
  const chosen = filters ?? NO_FILTERS;
  const filtered = isFiltered(chosen);
  const counted = useQuery({
    queryKey: [...source.queryKey, 'count', chosen],
    queryFn: () => getJson(`${source.listPath}${leadQueryString({ ...chosen, per_page: 1 })}`, leadListResponseSchema),
    enabled: filters !== null,
    staleTime: 0,
  });
  const count = counted.data?.total;
  const leads = count === 1 ? 'lead' : 'leads';
  return (
    <ConfirmDialog
      open={filters !== null}
      title={filtered ? 'Delete these leads?' : 'Clear all leads?'}
      confirmLabel={count === undefined ? 'Counting…' : `Delete ${count} ${leads}`}
      pendingLabel="Deleting…"
      tone="danger"
      pending={clearing}
      confirmDisabled={count === undefined || count === 0}
      error={error}
      onConfirm={() => onConfirm(chosen)}
      onCancel={onCancel}
    >
      <p>
        {count === 0
          ? 'There are no leads to delete.'
          : filtered
            ? `${count === undefined ? 'The leads' : `The ${count} ${leads}`} that match your search and filters will be deleted; your other leads stay. This cannot be undone; export a CSV first to keep a copy.`
            : `${count === undefined ? 'Every lead' : count === 1 ? 'Your 1 lead' : `All ${count} of your leads`} will be deleted. This cannot be undone; export a CSV first to keep a copy.`}
      </p>
    </ConfirmDialog>
  );
}
