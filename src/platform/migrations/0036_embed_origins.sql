-- Issue 26, the calculator embedded on agents' own sites (decision 0058). The sites allowed to frame
-- the agent's calculator (/embed/{slug}), each a normalized origin (`https://host[:port]`, no path):
-- the frame's Content-Security-Policy frame-ancestors is read from here on every answer. Empty: no
-- other site may frame it. The application caps the list at 10 (EMBED_ORIGINS_MAX); the check here
-- keeps a runaway write from making the header unbounded.
ALTER TABLE agent_settings
  ADD COLUMN embed_origins text[] NOT NULL DEFAULT '{}',
  ADD CONSTRAINT agent_settings_embed_origins_max CHECK (cardinality(embed_origins) <= 20);

-- A lead sent from the embedded calculator: the address of the page it was embedded on
-- (origin and path, never its query or fragment), kept only when its origin was on the agent's list
-- when the lead came in.
ALTER TABLE leads ADD COLUMN host_page text;

-- Such a lead's source is `embed`, whatever its form (EMBED_SOURCE).
ALTER TABLE leads DROP CONSTRAINT leads_source_check;
ALTER TABLE leads ADD CONSTRAINT leads_source_check
  CHECK (source IN ('showcase', 'calculator', 'nassau_county_page', 'suffolk_county_page', 'embed'));
