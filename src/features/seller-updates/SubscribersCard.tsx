import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Notice } from '../../ui/Notice.tsx';
import { centsToDollars, formatPrice } from '../../ui/money.ts';
import { ApiError, sendJson } from '../accounts/public/account-query.ts';
import { ActiveBadge } from './public/UpdatesBadge.tsx';
import { SUBSCRIBER_STATE_LABELS } from './public/subscriber-state.ts';
import { subscriberChangeSchema, UPDATES_PATH, type Subscriber } from './public/updates-screen.ts';
import { UPDATES_QUERY_KEY, useUpdates } from './updates-query.ts';
import { Paging } from '../../ui/Paging.tsx';
import { LONG_ISLAND_TIME_ZONE } from '../../ui/long-island-time.ts';

const shownDay = new Intl.DateTimeFormat('en-US', { timeZone: LONG_ISLAND_TIME_ZONE, dateStyle: 'medium' });
const dayOf = (at: string | null) => (at ? shownDay.format(new Date(at)) : null);

type Change = { leadId: number; kind: 'pause' | 'resume' };

/** The agent's sellers who asked for updates: their state, last update and click, pause / resume; 50 a page. */
export function SubscribersCard() {
  const id = useId();
  const [page, setPage] = useState(1);
  const list = useUpdates(page);
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; message: string } | null>(null);
  const change = useMutation({
    mutationFn: ({ leadId, kind }: Change) =>
      sendJson('POST', `${UPDATES_PATH}/${leadId}/${kind}`, subscriberChangeSchema),
    onSuccess: (answer, { kind }) =>
      setOutcome({
        tone: 'success',
        message: `Updates ${kind === 'pause' ? 'paused' : 'resumed'} for ${answer.subscriber.name}.`,
      }),
    onError: (error) =>
      setOutcome({
        tone: 'error',
        message:
          error instanceof ApiError && error.status < 500
            ? error.message
            : 'The change could not be saved. Please try again.',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: UPDATES_QUERY_KEY }),
  });
  const data = list.data;
  const busy = list.isPlaceholderData;
  return (
    <section className="card subscribers-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Your sellers</h2>
      <Notice tone="success" message={outcome?.tone === 'success' ? outcome.message : null} />
      <Notice tone="error" message={outcome?.tone === 'error' ? outcome.message : null} />
      {list.isError && !data ? (
        <div className="leads-state">
          <p role="alert" className="leads-failed">
            Failed to load your sellers
          </p>
          <button type="button" className="button button-primary" onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : !data ? (
        <p role="status">Loading your sellers…</p>
      ) : data.total === 0 ? (
        <div className="leads-state">
          <p>No seller has asked for updates yet.</p>
          <p>
            Your calculator page, your contact form and each estimate page offer sellers a box, unticked: “Send me a
            monthly update of my estimated net”. A seller who ticks it gets an e-mail to confirm; once confirmed, they
            are listed here with their first update about 30 days later.
          </p>
        </div>
      ) : (
        <>
          <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
            <table className="leads-table subscribers-table" aria-busy={busy}>
              <caption id={`${id}-caption`}>Sellers who asked for updates, the ready to sell first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">State</th>
                  <th scope="col">Last update</th>
                  <th scope="col">Last click</th>
                  <th scope="col">Active</th>
                  <th scope="col">
                    <span className="visually-hidden">Pause or resume</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.subscribers.map((subscriber) => (
                  <SubscriberRow
                    key={subscriber.lead_id}
                    subscriber={subscriber}
                    pending={change.isPending && change.variables.leadId === subscriber.lead_id}
                    disabled={change.isPending}
                    onChange={(kind) => {
                      setOutcome(null);
                      change.mutate({ leadId: subscriber.lead_id, kind });
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {data.total > data.per_page ? (
            <Paging
              things="sellers"
              page={data.page}
              perPage={data.per_page}
              total={data.total}
              shown={data.subscribers.length}
              busy={busy}
              onPage={setPage}
            />
          ) : null}
        </>
      )}
    </section>
  );
}

function SubscriberRow(props: {
  subscriber: Subscriber;
  pending: boolean;
  disabled: boolean;
  onChange: (kind: 'pause' | 'resume') => void;
}) {
  const { subscriber, pending, disabled, onChange } = props;
  const sent = dayOf(subscriber.last_sent_at);
  // Paused: Resume. Sending (or cold, which a click revives): Pause. Pending or unsubscribed: nothing to do.
  const action =
    subscriber.state === 'paused'
      ? 'resume'
      : subscriber.state === 'monthly' || subscriber.state === 'quarterly' || subscriber.state === 'stopped'
        ? 'pause'
        : null;
  return (
    <tr>
      <th scope="row">{subscriber.name}</th>
      <td data-label="Email" className="leads-email">
        <a href={`mailto:${subscriber.email}`}>{subscriber.email}</a>
      </td>
      <td data-label="State" className="nowrap">
        {SUBSCRIBER_STATE_LABELS[subscriber.state]}
      </td>
      <td data-label="Last update" className="nowrap">
        {sent ? (
          <>
            {sent}{' '}
            {subscriber.last_net_cents === null ? null : (
              <span className="leads-time">net {formatPrice(centsToDollars(subscriber.last_net_cents))}</span>
            )}
          </>
        ) : (
          'None yet'
        )}
      </td>
      <td data-label="Last click" className="nowrap">
        {dayOf(subscriber.last_click_at) ?? '—'}
      </td>
      <td data-label="Active" className="nowrap">
        {subscriber.active_at ? <ActiveBadge at={subscriber.active_at} /> : '—'}
      </td>
      <td data-label="Updates" className="nowrap">
        {action ? (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={disabled}
            onClick={() => onChange(action)}
          >
            {pending ? (action === 'pause' ? 'Pausing…' : 'Resuming…') : action === 'pause' ? 'Pause' : 'Resume'}
            <span className="visually-hidden"> updates to {subscriber.name}</span>
          </button>
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}
