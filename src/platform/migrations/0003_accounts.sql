-- Agent accounts: verification, sessions that can be revoked, single-use tokens, rate limits kept
-- in the database (they must hold across serverless instances), and the e-mail sending settings.

ALTER TABLE agents ADD COLUMN email_verified_at timestamptz;
-- Raised by logout-everywhere and by a password reset: every older session stops working.
ALTER TABLE agents ADD COLUMN session_version integer NOT NULL DEFAULT 1;

CREATE TABLE auth_tokens (
  -- SHA-256 (hex) of the 32 random bytes sent by e-mail; the token itself is never stored.
  token_hash text PRIMARY KEY,
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_tokens_agent_purpose_idx ON auth_tokens (agent_id, purpose);

CREATE TABLE rate_limits (
  -- What is limited, e.g. 'login:ip:203.0.113.7' or 'signup:email:pat@example.com'.
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);

-- One row: the admin's Mailgun settings (the API key encrypted with ENCRYPTION_KEY).
CREATE TABLE email_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  mailgun_domain text,
  mailgun_api_key_encrypted text,
  mailgun_from_name text,
  mailgun_from_email text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
