-- Follow Up Boss (issue 10): each agent's integration, and one sync job per lead with every attempt.

-- The agent's connection. The API key and the system key are encrypted at rest
-- (src/server/encryption.ts, each bound to its column); only their last characters are kept in the
-- clear, for the masked view. The account fields are what GET /v1/identity said of the key when it
-- was saved. `attention` says why syncing stopped (the key was refused), null while all is well.
CREATE TABLE fub_integrations (
  agent_id integer PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
  api_key_encrypted text,
  api_key_masked text,
  system text,
  system_key_encrypted text,
  system_key_masked text,
  active boolean NOT NULL DEFAULT false,
  account_name text,
  account_domain text,
  user_name text,
  user_email text,
  attention text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One job per lead, written in the statement that writes the lead (or by a manual sync). `payload`
-- is the event as it will be sent, so every retry sends the same thing. A job being sent is
-- `sending` until `claimed_until`; a sender that died leaves it claimable again after that.
--   queued   waiting for next_attempt_at
--   sending  claimed by a sender
--   synced   FUB took it (200/201): the lead's synced_to_fub is true and its person id kept
--   ignored  FUB accepted and ignored it (204: the source's lead flow is archived)
--   stopped  FUB refused the key (401/403); queued again when the agent saves a working key
--   rejected FUB refused the event itself (another 4xx): retrying would not change that
CREATE TABLE crm_syncs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lead_id integer NOT NULL UNIQUE REFERENCES leads (id) ON DELETE CASCADE,
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'sending', 'synced', 'ignored', 'stopped', 'rejected')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  person_id bigint,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX crm_syncs_due_idx ON crm_syncs (next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX crm_syncs_agent_idx ON crm_syncs (agent_id, status);

-- Every call to Follow Up Boss for a job: when, what came back, and why it failed if it did.
CREATE TABLE crm_sync_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sync_id bigint NOT NULL REFERENCES crm_syncs (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  outcome text NOT NULL,
  http_status integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX crm_sync_attempts_sync_idx ON crm_sync_attempts (sync_id, at);

ALTER TABLE leads ADD COLUMN fub_person_id bigint;
