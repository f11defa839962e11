import { useId } from 'react';
import { LEAD_ORIGINS, ORIGIN_LABELS } from '../lead-origin/public/lead-origin.ts';
import { CRM_STATUS_FILTERS, LEAD_LIST } from './public/lead-list.ts';
import { TOWN_OPTION, type Filters } from './use-lead-filters.ts';

const CRM_STATUS_LABELS: Record<(typeof CRM_STATUS_FILTERS)[number], string> = {
  none: 'Never sent',
  queued: 'Queued',
  sending: 'Sending',
  synced: 'Synced',
  ignored: 'Ignored (lead flow archived)',
  stopped: 'Stopped (key refused)',
  rejected: 'Rejected',
};

/**
 * The leads table's filters: search, source (a kind of page or one town's), the days, the sellers
 * ready to sell (active in their monthly updates) and, for the admin, CRM status.
 */
export function LeadFilters({
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
      <div className="field leads-active">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={filters.updates === 'active'}
            onChange={(event) => onChange('updates')(event.target.checked ? 'active' : '')}
          />
          <span>Ready to sell (active)</span>
        </label>
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
