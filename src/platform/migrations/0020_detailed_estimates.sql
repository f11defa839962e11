-- Issue 12: the detailed net sheet is stored with its estimate, so a shared link shows the same sheet
-- forever (a later change of the agent's defaults, the fee table or the code's rules moves nothing).
--   details     the seller's details as they were sent (the refine form is prefilled from them);
--   sheet       the computed sheet: its lines in integer cents, the net, the closing date, the notes;
--   sheet_basis what the sheet was computed with besides the estimate's own columns: the date it was
--               made ("today"), the agent's defaults and the fee table in force, so the price range
--               and the offers of this estimate are weighed on exactly the same terms.
-- All three are NULL for a quick estimate, which stays as it was.
ALTER TABLE estimates
  ADD COLUMN details jsonb,
  ADD COLUMN sheet jsonb,
  ADD COLUMN sheet_basis jsonb,
  ADD CONSTRAINT estimates_sheet_complete CHECK (
    (details IS NULL AND sheet IS NULL AND sheet_basis IS NULL)
    OR (jsonb_typeof(details) = 'object' AND jsonb_typeof(sheet) = 'object' AND jsonb_typeof(sheet_basis) = 'object')
  );

-- Two to four offers weighed on one estimate's sheet, shareable as /offers/{uuid}. The offers are
-- stored as sent and the comparison as computed (cents), for the same reason as the sheet above.
CREATE TABLE offer_comparisons (
  uuid uuid PRIMARY KEY,
  estimate_uuid uuid NOT NULL REFERENCES estimates (uuid) ON DELETE CASCADE,
  offers jsonb NOT NULL CHECK (jsonb_typeof(offers) = 'array'),
  comparison jsonb NOT NULL CHECK (jsonb_typeof(comparison) = 'array'),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX offer_comparisons_estimate_idx ON offer_comparisons (estimate_uuid);
