-- A lead's context (the page its form was on) and what the abuse limits of POST /api/leads and
-- POST /api/email/send-estimate need.

-- The site path of the page the form was on (e.g. /long-island-real-estate/bay-shore); null when
-- the form did not say.
ALTER TABLE leads ADD COLUMN page_path text;
-- When estimate_uuid was last recorded: a repeat of the lead within minutes records its newer
-- estimate on the lead instead of adding a lead, and send-estimate only mails a visitor whose lead
-- recorded that estimate recently.
ALTER TABLE leads ADD COLUMN estimate_recorded_at timestamptz;
UPDATE leads SET estimate_recorded_at = created_at WHERE estimate_uuid IS NOT NULL;
CREATE INDEX leads_estimate_idx ON leads (estimate_uuid) WHERE estimate_uuid IS NOT NULL;

-- The latest lead of each visitor (e-mail, lower-cased) for each agent. POST /api/leads claims
-- this row with INSERT … ON CONFLICT DO UPDATE in the statement that writes the lead: the row lock
-- makes two identical requests at once agree on one lead (see insertLead in leads.server.ts).
CREATE TABLE lead_claims (
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  email_key text NOT NULL,
  lead_id integer NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  claimed_at timestamptz NOT NULL,
  PRIMARY KEY (agent_id, email_key)
);
