-- Each offers comparison's PDF, made once and then served from here while `version` (a hash of
-- everything printed: the comparison's figures, the agent's card and print copies, the link) still
-- matches, as estimate_pdfs does for an estimate's (issue 22, part F; decision 0044).
CREATE TABLE offer_pdfs (
  comparison_uuid uuid PRIMARY KEY REFERENCES offer_comparisons (uuid) ON DELETE CASCADE,
  version text NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
