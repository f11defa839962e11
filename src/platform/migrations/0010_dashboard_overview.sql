-- The dashboard overview's recent activity: e-mails about an agent's leads and estimates, found
-- by index rather than by reading every delivery.
CREATE INDEX email_deliveries_lead_idx ON email_deliveries (lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX email_deliveries_estimate_idx ON email_deliveries (estimate_uuid) WHERE estimate_uuid IS NOT NULL;
