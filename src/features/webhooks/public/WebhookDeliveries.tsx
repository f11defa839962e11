import { Fragment } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import { deliveryStatus, longIslandTimeText, useWebhookDeliveries, type WebhooksBase } from './webhook-query.ts';
import type { WebhookDelivery } from './webhooks.ts';

const OUTCOME_WORDS: Readonly<Record<WebhookDelivery['attempts_log'][number]['outcome'], string>> = {
  delivered: 'Delivered',
  retry: 'Will retry',
  gone: 'Gone (410): endpoint stopped',
  failed: 'Failed',
  refused: 'Refused address',
  timeout: 'Timed out',
  network: 'Network error',
};

/**
 * An endpoint's delivery log (its last 50 messages, newest first): each message's time, event,
 * status and attempts, and under it every attempt with its HTTP status, duration and the first bytes
 * the receiver answered, shown as text in a <pre> (never as HTML: it is whatever the receiver sent).
 */
export function WebhookDeliveries({
  base,
  endpointId,
  titleId,
}: {
  base: WebhooksBase;
  endpointId: number;
  titleId: string;
}) {
  const deliveries = useWebhookDeliveries(base, endpointId);
  return (
    <section className="webhook-deliveries" aria-labelledby={titleId}>
      <h4 id={titleId}>Deliveries</h4>
      {deliveries.isPending ? <p aria-live="polite">Loading…</p> : null}
      {deliveries.isError ? (
        <div className="webhook-state">
          <Notice tone="error" message="Failed to load the deliveries" />
          <button type="button" className="button button-secondary" onClick={() => void deliveries.refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      {deliveries.data?.length === 0 ? <p>No deliveries yet. A test event or the next lead shows here.</p> : null}
      {deliveries.data && deliveries.data.length > 0 ? (
        <>
          <div className="nav-actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={deliveries.isFetching}
              onClick={() => void deliveries.refetch()}
            >
              {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
            </button>
          </div>
          <div className="table-scroll" role="region" aria-labelledby={`${titleId}-caption`} tabIndex={0}>
            <table className="webhook-log">
              <caption id={`${titleId}-caption`} className="visually-hidden">
                Deliveries, newest first, each with its attempts
              </caption>
              <thead>
                <tr>
                  <th scope="col">Event and time</th>
                  <th scope="col">Status and attempts</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((delivery) => (
                  <DeliveryRows key={delivery.id} delivery={delivery} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}

function DeliveryRows({ delivery }: { delivery: WebhookDelivery }) {
  const status = deliveryStatus(delivery.status);
  return (
    <Fragment>
      {/* Two columns, so the log fits a phone's width without scrolling sideways. */}
      <tr className="webhook-log-delivery">
        <td>
          <code className="webhook-event">{delivery.event_type}</code>
          {longIslandTimeText(delivery.created_at)}
        </td>
        <td>
          <span className={`badge ${status.badge}`}>{status.words}</span>
          <br />
          {delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`}
          {delivery.next_attempt_at ? `, next ${longIslandTimeText(delivery.next_attempt_at)}` : ''}
        </td>
      </tr>
      {delivery.attempts_log.length > 0 ? (
        <tr className="webhook-log-attempts">
          <td colSpan={2}>
            <ol className="webhook-attempts" aria-label={`Attempts of ${delivery.message_id}`} reversed>
              {delivery.attempts_log.map((attempt, index) => (
                <li key={`${attempt.at}-${index}`}>
                  <p>
                    {longIslandTimeText(attempt.at)} · {OUTCOME_WORDS[attempt.outcome]} · HTTP{' '}
                    {attempt.http_status ?? '—'} · {attempt.duration_ms} ms
                  </p>
                  {attempt.error ? <p className="webhook-error">{attempt.error}</p> : null}
                  {attempt.response_head ? (
                    <>
                      <p className="webhook-response-label">The receiver’s answer (first bytes):</p>
                      <pre className="webhook-response">{attempt.response_head}</pre>
                    </>
                  ) : null}
                </li>
              ))}
            </ol>
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
