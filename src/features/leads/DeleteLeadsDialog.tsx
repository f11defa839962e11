import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { getJson } from '../accounts/public/account-query.ts';
import { leadListResponseSchema, leadQueryString } from './public/lead-list.ts';
import type { LeadsSource } from './public/leads-source.ts';
import { isFiltered, NO_FILTERS, type SentFilters } from './use-lead-filters.ts';

/**
 * The spec's confirmation: says how many leads will go before they do, counted afresh by the list's
 * own query with the filters the deletion will send, so the number shown is the number deleted.
 */
export function DeleteLeadsDialog(props: {
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
