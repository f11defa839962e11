-- Issue 12 (Long Island net sheet): the site-wide closing-fee table and the agent's defaults for the
-- net sheet's new lines.

-- The admin's corrections to the Long Island fee table. The researched defaults live in ONE place,
-- the code (LI_FEE_DEFAULTS in src/features/net-sheet/li-fees.ts); this row holds only the fees an
-- admin changed, as { fee_key: { cents, checked, source } }. A key that is absent is the default, so
-- "Reset to researched default" stores nothing and a later correction of a default in the code
-- reaches every site that never changed that fee. PUT /api/admin/net-sheet-fees replaces the object.
CREATE TABLE net_sheet_fees (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  overrides jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(overrides) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO net_sheet_fees (id) VALUES (1);

-- The agent's defaults for the net sheet's lines. As with the older columns, NULL means "the system
-- default" (src/features/settings/agent-settings.ts). The split of the commission is the new truth:
-- default_commission_percent stays, as the sum of the two sides, for the quick estimate; a NULL split
-- is the commission cut in half (buyer's agent side rounded down to hundredths, remainder to the
-- listing side), which is also how existing agents are split below.
ALTER TABLE agent_settings
  ADD COLUMN default_listing_percent numeric(5, 2) CHECK (default_listing_percent BETWEEN 0 AND 100),
  ADD COLUMN default_buyer_agent_percent numeric(5, 2) CHECK (default_buyer_agent_percent BETWEEN 0 AND 100),
  ADD COLUMN default_days_to_closing integer CHECK (default_days_to_closing BETWEEN 1 AND 365),
  ADD COLUMN default_title_closer_pickup boolean,
  ADD COLUMN default_payoff_bank_attorney boolean,
  ADD COLUMN default_rp5217_on_seller boolean;

UPDATE agent_settings
   SET default_buyer_agent_percent = floor(default_commission_percent * 50) / 100,
       default_listing_percent = default_commission_percent - floor(default_commission_percent * 50) / 100
 WHERE default_commission_percent IS NOT NULL;

-- Both sides or neither, and the commission is their sum whenever the split is stored.
ALTER TABLE agent_settings
  ADD CONSTRAINT agent_settings_split_whole
    CHECK ((default_listing_percent IS NULL) = (default_buyer_agent_percent IS NULL)),
  ADD CONSTRAINT agent_settings_split_sums_to_commission
    CHECK (default_listing_percent IS NULL
           OR default_commission_percent = default_listing_percent + default_buyer_agent_percent);
