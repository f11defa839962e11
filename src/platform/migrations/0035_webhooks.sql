-- Issue 26: outgoing webhooks (Standard Webhooks 1.0), src/features/webhooks.
--
-- An endpoint is an agent's (agent_id, about that agent's leads) or the site's (agent_id NULL, an
-- admin's, about every agent's leads). Its signing secret is kept encrypted like the Follow Up Boss
-- keys; during a rotation the previous secret signs too until previous_secret_until.
CREATE TABLE webhook_endpoints (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id integer REFERENCES agents (id) ON DELETE CASCADE,
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
  events text[] NOT NULL CHECK (
    cardinality(events) > 0
    AND events <@ ARRAY['lead.created', 'lead.updated', 'estimate.created', 'seller.active']::text[]
  ),
  active boolean NOT NULL DEFAULT true,
  -- Why deliveries stopped without the owner turning it off: 'gone' (the receiver answered 410).
  stopped_reason text CHECK (stopped_reason IN ('gone')),
  secret_encrypted text NOT NULL,
  previous_secret_encrypted text,
  previous_secret_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_agent_idx ON webhook_endpoints (agent_id, id);

-- One message to one endpoint. message_id is the webhook-id header, the same on every attempt, so a
-- receiver can take it once; once an attempt is accepted (2xx) the row is never sent again.
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  message_id text NOT NULL UNIQUE,
  event_type text NOT NULL,
  -- The JSON body sent, { type, timestamp, data }, fixed when the event happened. An estimate.created
  -- is queued by the estimate's own INSERT as { type, timestamp } with estimate_uuid: its figures are
  -- computed in TypeScript, so its data is written in at the first attempt, and kept for the rest.
  payload jsonb NOT NULL,
  estimate_uuid uuid REFERENCES estimates (uuid) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'delivered', 'failed', 'stopped')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status IN ('queued', 'sending');
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);

-- Every attempt: when, what came back (status, the response's first bytes) and how long it took.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'retry', 'gone', 'failed', 'refused', 'timeout', 'network')),
  http_status integer,
  duration_ms integer NOT NULL,
  response_head text,
  error text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id DESC);
