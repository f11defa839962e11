-- Where a lead came from (issue 23, newcomer audit M1): a town-page or home-page contact was filed
-- as "Showcase", and the lists could not tell one town from another. The kind is told from the
-- page the form was on (page_path), as src/features/leads/lead-origin.ts tells it (a test holds the
-- two to the same answers); a lead without a page falls back to its form's source. Generated, so
-- every lead, old and new, has it and no writer can forget it.
ALTER TABLE leads ADD COLUMN origin text NOT NULL GENERATED ALWAYS AS (
  CASE
    WHEN page_path IS NULL THEN
      CASE source
        WHEN 'showcase' THEN 'home'
        WHEN 'calculator' THEN 'agent_page'
        WHEN 'nassau_county_page' THEN 'nassau_county'
        WHEN 'suffolk_county_page' THEN 'suffolk_county'
        ELSE 'other'
      END
    WHEN page_path ~ '^/*$' THEN 'home'
    WHEN page_path ~ '^/long-island-real-estate/nassau-county/?$' THEN 'nassau_county'
    WHEN page_path ~ '^/long-island-real-estate/suffolk-county/?$' THEN 'suffolk_county'
    WHEN page_path ~ '^/long-island-real-estate/[^/]+/?$' THEN 'town'
    WHEN page_path ~ '^/r/[^/]+/?$' THEN 'agent_page'
    WHEN page_path ~ '^/about-[^/]+/?$' THEN 'about_page'
    WHEN page_path ~ '^/estimate(/|$)' THEN 'estimate'
    WHEN page_path ~ '^/offers(/|$)' THEN 'offers'
    ELSE 'other'
  END
) STORED;

-- The town of a town page (the county pages' slugs too; the lists pair it with origin = 'town').
ALTER TABLE leads ADD COLUMN page_town text GENERATED ALWAYS AS (
  substring(page_path FROM '^/long-island-real-estate/([^/]+)/?$')
) STORED;

-- The utm_* parameters of the URL the visitor arrived on ({"source": "facebook", "campaign": ...}).
ALTER TABLE leads ADD COLUMN utm jsonb;

-- A source filter pages by these, as leads_source_created_id_idx (migration 0014) did for `source`.
CREATE INDEX leads_origin_created_id_idx ON leads (origin, page_town, created_at DESC, id DESC);
DROP INDEX IF EXISTS leads_source_created_id_idx;
