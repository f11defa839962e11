-- Issue 21, findings 1, 5 and 6: e-mail changes that wait for the new address's link, admin grants
-- recorded once and only for a proven address, invitations told apart from password resets, and
-- sessions that end one at a time.

-- The address an agent asked to move to; it becomes `email` only when the link sent there is
-- followed (POST /api/auth/confirm-email-change).
ALTER TABLE agents ADD COLUMN pending_email text;
-- The address (lower-cased) the agent last proved by following a link sent to it. Admin grants by
-- ADMIN_EMAILS need it to be the listed address. Left empty for existing rows: an e-mail changed
-- before this migration was never proved.
ALTER TABLE agents ADD COLUMN verified_email text;

-- The address a token was sent to: a change_email token names the new address, an
-- undo_email_change token the old one (what following it restores).
ALTER TABLE auth_tokens ADD COLUMN email text;
ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check;
ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
  CHECK (purpose IN ('verify_email', 'reset_password', 'invitation', 'change_email', 'undo_email_change'));
-- An admin's invitation activates the account it was sent for; a password reset never does. Links
-- already sent to invited agents (no password yet, never verified) keep working as invitations.
UPDATE auth_tokens t SET purpose = 'invitation'
  FROM agents a
 WHERE t.agent_id = a.id AND t.purpose = 'reset_password' AND t.used_at IS NULL
   AND a.password_hash IS NULL AND a.email_verified_at IS NULL;

-- Each address of ADMIN_EMAILS is granted once: the seed skips an address found here, so an admin an
-- admin demoted is not made one again by the next build. Existing admins count as granted.
CREATE TABLE admin_grants (
  email text PRIMARY KEY,
  agent_id integer REFERENCES agents (id) ON DELETE SET NULL,
  granted_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO admin_grants (email, agent_id) SELECT lower(email), id FROM agents WHERE is_admin
  ON CONFLICT (email) DO NOTHING;

-- Sessions ended by logout before their expiry, by id (the JWT's jti). Every signed-in query looks
-- its session up here by primary key; rows are deleted once the token would have expired anyway.
CREATE TABLE ended_sessions (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX ended_sessions_expires_idx ON ended_sessions (expires_at);
