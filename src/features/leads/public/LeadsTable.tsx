import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useDeferredValue, useState } from 'react';
import { DialogOnDemand } from '../../../ui/DialogOnDemand.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, getJson, sendJson } from '../../accounts/public/account-query.ts';
import { DeleteLeads } from '../DeleteLeads.tsx';
import { LeadFilters } from '../LeadFilters.tsx';
import {
  adminLeadListResponseSchema,
  clearLeadsResponseSchema,
  LEAD_LIST,
  leadListResponseSchema,
  leadQueryString,
  type AdminLeadRow,
} from './lead-list.ts';
import { adminRow, LeadRows } from '../LeadRows.tsx';
import type { LeadsSource } from './leads-source.ts';
import { Paging } from '../../../ui/Paging.tsx';
import {
  isFiltered,
  NO_FILTERS,
  TOWN_OPTION,
  useLeadFilters,
  type Filters,
  type SentFilters,
} from '../use-lead-filters.ts';
import { useLeadExport } from './use-lead-export.ts';
import { useLeadSync } from '../use-lead-sync.ts';

// The dialogs load when first opened (DialogOnDemand): the first paint carries the table and its filters.
const DeleteLeadsDialog = lazy(() =>
  import('../DeleteLeadsDialog.tsx').then((module) => ({ default: module.DeleteLeadsDialog })),
);
const LeadSyncHistoryDialog = lazy(() =>
  import('../LeadSyncHistory.tsx').then((module) => ({ default: module.LeadSyncHistoryDialog })),
);

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

  // The rows as drawn: a new page of them is drawn in a transition (useDeferredValue), which yields
  // to the browser every few milliseconds, not in one long task that blocks a tap (issue 23: the
  // screen's total blocking time); until then the previous rows, or "Loading leads…", stay.
  const shown = useDeferredValue(list.data);
  // The rows shown are not the filters' and page's yet (the next page loads, or is being drawn).
  const busy = list.isPlaceholderData || shown !== list.data;

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
      {list.isError ? (
        <div className="leads-state">
          <p role="alert" className="leads-failed">
            Failed to fetch leads
            {list.error instanceof ApiError && list.error.status === 400 ? `: ${list.error.message}` : ''}
          </p>
          <button type="button" className="button button-primary" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : shown === undefined ? (
        <p role="status">Loading leads…</p>
      ) : shown.total === 0 ? (
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
            leads={shown.leads}
            busy={busy}
            crm={crm}
            admin={source.admin ? { ...source.admin, onAgent: showAgent } : null}
          />
          <Paging
            things="leads"
            page={shown.page}
            perPage={shown.per_page}
            total={shown.total}
            shown={shown.leads.length}
            busy={busy}
            onPage={setPage}
          />
          {source.admin ? null : (
            <DeleteLeads
              filtered={filtered}
              count={busy ? undefined : shown.total}
              onDelete={() => {
                setOutcome(null);
                clearAll.reset();
                setConfirming(filters);
              }}
            />
          )}
        </>
      )}
      {crm?.history ? (
        <DialogOnDemand>
          <LeadSyncHistoryDialog lead={crm.history} onClose={() => crm.showHistory(null)} />
        </DialogOnDemand>
      ) : null}
      {confirming ? (
        <DialogOnDemand>
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
        </DialogOnDemand>
      ) : null}
    </div>
  );
}
