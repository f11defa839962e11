-- Issue 25: besides a lead's own sync job, Follow Up Boss jobs that carry an event about a lead:
-- 'seller_active', when a seller who receives updates becomes active (src/features/seller-updates/
-- public/active.server.ts). They go through the same sender, retries and settlement as the lead's job.
--
-- lead_id stays the lead's own sync job, unique: every reader that asks for "the lead's sync"
-- (the lead list, the dashboard, the lead statement) keeps finding exactly one row. An event job
-- names its lead in about_lead_id instead, and leaves lead_id NULL.
ALTER TABLE crm_syncs
  ADD COLUMN kind text NOT NULL DEFAULT 'lead' CHECK (kind IN ('lead', 'seller_active')),
  ADD COLUMN about_lead_id integer REFERENCES leads (id) ON DELETE CASCADE,
  ALTER COLUMN lead_id DROP NOT NULL,
  ADD CONSTRAINT crm_syncs_kind_lead CHECK (
    CASE WHEN kind = 'lead' THEN lead_id IS NOT NULL AND about_lead_id IS NULL
         ELSE lead_id IS NULL AND about_lead_id IS NOT NULL END
  );
CREATE INDEX crm_syncs_about_lead_idx ON crm_syncs (about_lead_id) WHERE about_lead_id IS NOT NULL;
