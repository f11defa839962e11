import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Notice } from '../../../ui/Notice.tsx';
import type { SecretAnswer } from './WebhookEndpointForm.tsx';
import { WebhookEndpointItem } from './WebhookEndpointItem.tsx';
import { OnDemand, WebhookEndpointForm, WebhookSecretPanel } from './webhook-parts-on-demand.tsx';
import { useWebhookEndpoints, webhooksQueryKey, type WebhooksBase } from './webhook-query.ts';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from './webhooks.ts';

interface WebhooksCardProps {
  /** The agent's own endpoints, or (an admin's /admin/settings) the site's. */
  base: WebhooksBase;
  /** The card's heading: "Webhooks", or "Webhooks (every agent's leads)". */
  title: string;
  /** Whose leads are sent: "your leads", "every agent's leads". */
  whose: string;
  /** The heading's id, where a list of sections links to it. */
  titleId?: string;
}

/**
 * The webhooks card (issue 26), one for both places: an agent's on /dashboard/integrations and the
 * site's on /admin/settings. Its endpoints with their state and actions, the add form, and a new
 * signing secret shown once.
 */
export function WebhooksCard({ base, title, whose, titleId = 'webhooks-title' }: WebhooksCardProps) {
  const endpoints = useWebhookEndpoints(base);
  return (
    <section className="card webhooks-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p>
        Send {whose} as they happen to any address that takes a webhook: a Zapier or Make “Catch Hook”, or another CRM’s
        inbound webhook (kvCORE/BoldTrail, Lofty, Sierra, Real Geeks…). Each request is a signed JSON POST.
      </p>
      {endpoints.isPending ? <p aria-live="polite">Loading…</p> : null}
      {endpoints.isError ? (
        <div className="webhook-state">
          <Notice tone="error" message="Failed to load the webhook endpoints" />
          <button type="button" className="button button-primary" onClick={() => void endpoints.refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      {endpoints.data ? <WebhookEndpoints base={base} whose={whose} endpoints={endpoints.data} /> : null}
    </section>
  );
}

function WebhookEndpoints({
  base,
  whose,
  endpoints,
}: {
  base: WebhooksBase;
  whose: string;
  endpoints: WebhookEndpoint[];
}) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<SecretAnswer | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const addTitleId = useId();

  const added = (answer: SecretAnswer) => {
    queryClient.setQueryData<WebhookEndpoint[]>(webhooksQueryKey(base), (list) => [answer.endpoint, ...(list ?? [])]);
    setAdding(false);
    // The panel says "Copy it now" itself: the answer's own "copy it now" would say it twice.
    setSecret({ ...answer, message: 'Endpoint added.' });
  };

  return (
    <div className="webhooks">
      {secret ? (
        <OnDemand>
          <WebhookSecretPanel
            message={secret.message}
            url={secret.endpoint.url}
            secret={secret.secret}
            onDismiss={() => setSecret(null)}
          />
        </OnDemand>
      ) : null}
      <Notice tone="success" message={removed} />
      {endpoints.length === 0 ? (
        <p className="webhook-empty">No endpoints yet. Add one to send {whose} to Zapier, Make or your CRM.</p>
      ) : (
        <ul className="plain-list webhook-endpoints" aria-label="Endpoints">
          {endpoints.map((endpoint) => (
            <WebhookEndpointItem
              key={endpoint.id}
              base={base}
              endpoint={endpoint}
              onSecret={(answer) => {
                setRemoved(null);
                setSecret(answer);
              }}
              onRemoved={(message) => {
                setSecret((shown) => (shown?.endpoint.id === endpoint.id ? null : shown));
                setRemoved(message);
              }}
            />
          ))}
        </ul>
      )}
      {adding ? (
        <section className="webhook-add" aria-labelledby={addTitleId}>
          <h3 id={addTitleId}>Add endpoint</h3>
          <OnDemand>
            <WebhookEndpointForm base={base} onAdded={added} onCancel={() => setAdding(false)} />
          </OnDemand>
        </section>
      ) : (
        <div className="nav-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setRemoved(null);
              setAdding(true);
            }}
          >
            Add endpoint
          </button>
          {endpoints.length >= MAX_WEBHOOK_ENDPOINTS ? (
            <p className="field-hint">You have {MAX_WEBHOOK_ENDPOINTS} endpoints, the most allowed.</p>
          ) : null}
        </div>
      )}
    </div>
  );
}
