-- Four changes of the admin's data screens (issue 23: newcomer audit minors 31 and 34, the fee
-- table's lost update, the leads lists' towns).

-- Which towns a market-data run changed (minor 31): their slugs, so that the runs table can name
-- them ("Updated 12 towns: Babylon, Bay Shore, … and 4 more") rather than give a bare count. The
-- names are looked up in `towns` when the runs are read; towns_updated stays the count. Runs
-- recorded before this column have none listed (the table then gives the count alone).
ALTER TABLE data_runs ADD COLUMN updated_towns text[] NOT NULL DEFAULT '{}';

-- The track record's source line (minor 34 follow-up): shown under the track record on the home and
-- about pages when given, and asked about before an unsourced track record is published, like the
-- claims' source lines. Empty means "not shown".
ALTER TABLE site_content ADD COLUMN track_record_source text NOT NULL DEFAULT '';

-- While the track record is still the shipped one, untouched by an admin, it says where it comes
-- from (as migration 0028 did for the shipped claims); an admin's own figures are left as they are.
UPDATE site_content
   SET track_record_source = 'Source: sample figures shipped with this site, not its own sales',
       updated_at = now()
 WHERE track_record = '[
    {"figure": "1,381+", "label": "homes sold"},
    {"figure": "350", "label": "sold in the last 12 months"},
    {"figure": "$80K–$4.7M", "label": "price range"},
    {"figure": "5.0", "label": "rating from 47 reviews"}
  ]'::jsonb;

-- The fee table's version (issue 23): each save sends the version it was edited from and is refused
-- (409, nothing written) when another save came between, so two admins cannot silently overwrite
-- each other's change of the whole table. Each save adds one.
ALTER TABLE net_sheet_fees ADD COLUMN version integer NOT NULL DEFAULT 1;

-- The towns of an agent's town-page leads, for the leads list's Source filter: found by a loose
-- index scan (townsOfLeads, src/features/leads/lead-list.server.ts), one probe per town, instead of a
-- DISTINCT over every such lead (24 times the page's cost at 100,000 leads; decision 0052). Every
-- agent's (the admin's list) are probed by leads_origin_created_id_idx (migration 0025).
CREATE INDEX leads_agent_origin_town_idx ON leads (agent_id, origin, page_town);
