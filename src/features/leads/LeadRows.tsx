import { Fragment, useId } from 'react';
import { formatPhone, telHref } from '../../ui/phone.ts';
import { SyncBadge } from './SyncBadge.tsx';
import { UpdatesBadge } from '../seller-updates/public/UpdatesBadge.tsx';
import type { AdminLeadRow, LeadRow } from './public/lead-list.ts';
import { LEAD_TIME_ZONE } from './public/lead-time-zone.ts';
import { canSend, type LeadSyncControls } from './use-lead-sync.ts';

/** The admin's row of a lead (with its agent), or null on the agent's own list. */
export const adminRow = (lead: LeadRow | AdminLeadRow): AdminLeadRow | null => ('agent_name' in lead ? lead : null);

const shownDay = new Intl.DateTimeFormat('en-US', { timeZone: LEAD_TIME_ZONE, dateStyle: 'medium' });
const shownTime = new Intl.DateTimeFormat('en-US', { timeZone: LEAD_TIME_ZONE, timeStyle: 'short' });

/** The leads table itself, its columns and a row per lead (each with its sync or its agent and timeline). */
export function LeadRows(props: {
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
            {/* Beside the name: the seller getting ready to sell is what the agent looks for first. */}
            <th scope="col">Active</th>
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
                <td data-label="Active" className="nowrap">
                  <UpdatesBadge updates={lead.updates} />
                </td>
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
