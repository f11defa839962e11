import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, sendJson } from '../../accounts/public/account-query.ts';
import type { SecretAnswer } from './WebhookEndpointForm.tsx';
import { OnDemand, WebhookDeliveries, WebhookEndpointForm } from './webhook-parts-on-demand.tsx';
import {
  deliveriesQueryKey,
  deliveryStatus,
  longIslandTimeText,
  webhookRemovedSchema,
  webhooksQueryKey,
  type WebhooksBase,
} from './webhook-query.ts';
import {
  SECRET_OVERLAP_HOURS,
  webhookSavedSchema,
  webhookSecretAnswerSchema,
  webhookTestAnswerSchema,
  type WebhookEndpoint,
} from './webhooks.ts';

type Outcome = { tone: 'success' | 'error'; message: string } | null;

const failureOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

interface ItemProps {
  base: WebhooksBase;
  endpoint: WebhookEndpoint;
  /** A rotation's new secret, for the card's once-only panel. */
  onSecret: (answer: SecretAnswer) => void;
  /** The endpoint is gone from the list: the card says so. */
  onRemoved: (message: string) => void;
}

/** One endpoint of the list: what it is and how it fares, and what can be done with it. */
export function WebhookEndpointItem({ base, endpoint, onSecret, onRemoved }: ItemProps) {
  const queryClient = useQueryClient();
  const id = useId();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [editing, setEditing] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [confirming, setConfirming] = useState<'rotate' | 'remove' | null>(null);

  const replaced = (next: WebhookEndpoint) =>
    queryClient.setQueryData<WebhookEndpoint[]>(webhooksQueryKey(base), (list) =>
      list?.map((each) => (each.id === next.id ? next : each)),
    );
  const path = `${base}/${endpoint.id}`;

  const toggle = useMutation({
    mutationFn: () => sendJson('PATCH', path, webhookSavedSchema, { active: !endpoint.active }),
    onSuccess: (answer) => {
      replaced(answer.endpoint);
      setOutcome({ tone: 'success', message: answer.endpoint.active ? 'Endpoint turned on.' : 'Endpoint turned off.' });
    },
    onError: (error) => setOutcome({ tone: 'error', message: failureOf(error, 'Failed to change the endpoint') }),
  });

  const test = useMutation({
    mutationFn: () => sendJson('POST', `${path}/test`, webhookTestAnswerSchema),
    onSuccess: (answer) => {
      // A success is said only when the receiver took it: a failed delivery is an error.
      setOutcome({ tone: answer.delivered ? 'success' : 'error', message: answer.message });
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey(base) });
      void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(base, endpoint.id) });
    },
    onError: (error) => setOutcome({ tone: 'error', message: failureOf(error, 'Failed to send the test event') }),
  });

  const rotate = useMutation({
    mutationFn: () => sendJson('POST', `${path}/rotate-secret`, webhookSecretAnswerSchema),
    onSuccess: (answer) => {
      setConfirming(null);
      replaced(answer.endpoint);
      onSecret(answer);
    },
  });

  const remove = useMutation({
    mutationFn: () => sendJson('DELETE', path, webhookRemovedSchema),
    onSuccess: (answer) => {
      setConfirming(null);
      onRemoved(answer.message);
      queryClient.setQueryData<WebhookEndpoint[]>(webhooksQueryKey(base), (list) =>
        list?.filter((each) => each.id !== endpoint.id),
      );
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey(base) });
    },
  });

  const act = (run: () => void) => {
    setOutcome(null);
    run();
  };
  const last = endpoint.last_delivery;
  const lastStatus = last ? deliveryStatus(last.status) : null;

  return (
    <li className="webhook-endpoint">
      <article aria-labelledby={`${id}-url`}>
        <h3 id={`${id}-url`} className="webhook-url">
          {endpoint.url}
        </h3>
        <p className="webhook-status">
          <span className={`badge ${endpoint.active ? 'badge-on' : 'badge-off'}`}>
            {endpoint.active ? 'On' : 'Off'}
          </span>
          {endpoint.description ? <span>{endpoint.description}</span> : null}
        </p>
        {endpoint.stopped_reason === 'gone' ? (
          <p className="notice-warning webhook-stopped">
            Stopped: the receiver answered 410 Gone. Turn it on again to send to it.
          </p>
        ) : null}
        <p className="webhook-events-list">
          Events:{' '}
          {endpoint.events.map((type, index) => (
            <span key={type}>
              {index > 0 ? ', ' : ''}
              <code>{type}</code>
            </span>
          ))}
        </p>
        <p className="webhook-last">
          {last && lastStatus ? (
            <>
              Last delivery: <span className={`badge ${lastStatus.badge}`}>{lastStatus.words}</span>{' '}
              {longIslandTimeText(last.at)}
            </>
          ) : (
            'No deliveries yet'
          )}
        </p>
        {endpoint.previous_secret_until ? (
          <p className="field-hint">
            The previous secret also signs until {longIslandTimeText(endpoint.previous_secret_until)}.
          </p>
        ) : null}
        {editing ? (
          <OnDemand>
            <WebhookEndpointForm
              base={base}
              endpoint={endpoint}
              onSaved={(answer) => {
                replaced(answer.endpoint);
                setEditing(false);
                setOutcome({ tone: 'success', message: answer.message });
              }}
              onCancel={() => setEditing(false)}
            />
          </OnDemand>
        ) : (
          <div className="webhook-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={test.isPending || !endpoint.active}
              onClick={() => act(() => test.mutate())}
            >
              {test.isPending ? 'Sending…' : 'Send test event'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              aria-expanded={logOpen}
              aria-controls={logOpen ? `${id}-log` : undefined}
              onClick={() => setLogOpen(!logOpen)}
            >
              {logOpen ? 'Hide deliveries' : 'Deliveries'}
            </button>
            <button
              type="button"
              className="button button-secondary"
              disabled={toggle.isPending}
              onClick={() => act(() => toggle.mutate())}
            >
              {endpoint.active ? 'Turn off' : 'Turn on'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => act(() => setEditing(true))}>
              Edit
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                act(() => {
                  rotate.reset();
                  setConfirming('rotate');
                })
              }
            >
              Rotate secret
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() =>
                act(() => {
                  remove.reset();
                  setConfirming('remove');
                })
              }
            >
              Remove
            </button>
          </div>
        )}
        {!endpoint.active && !editing ? <p className="field-hint">Turn it on to send a test event.</p> : null}
        <Notice tone={outcome?.tone ?? 'success'} message={outcome?.message ?? null} />
        {logOpen ? (
          <div id={`${id}-log`}>
            <OnDemand>
              <WebhookDeliveries base={base} endpointId={endpoint.id} titleId={`${id}-log-title`} />
            </OnDemand>
          </div>
        ) : null}
      </article>
      <ConfirmDialog
        open={confirming === 'rotate'}
        title="Make a new signing secret?"
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        tone="primary"
        pending={rotate.isPending}
        error={rotate.isError ? failureOf(rotate.error, 'Failed to make a new secret') : null}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setConfirming(null)}
      >
        <p>
          A new secret signs every request from now on; the current one also signs for {SECRET_OVERLAP_HOURS} hours, so
          you have time to put the new one where {endpoint.url} checks it.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'remove'}
        title="Remove this endpoint?"
        confirmLabel="Remove endpoint"
        pendingLabel="Removing…"
        tone="danger"
        pending={remove.isPending}
        error={remove.isError ? failureOf(remove.error, 'Failed to remove the endpoint') : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(null)}
      >
        <p>Nothing more is sent to {endpoint.url}, and its delivery log is deleted.</p>
      </ConfirmDialog>
    </li>
  );
}
