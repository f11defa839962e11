-- Towns and their market data (the data pipeline fills the last two), SEO defaults, e-mail deliveries.

CREATE TABLE towns (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name text NOT NULL,
  county text NOT NULL CHECK (county IN ('Nassau', 'Suffolk')),
  -- Hamptons and North Shore towns add their region's keywords.
  region text CHECK (region IN ('Hamptons', 'North Shore')),
  zip_codes text[] NOT NULL DEFAULT '{}',
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  population integer CHECK (population >= 0),
  meta_title text NOT NULL,
  meta_description text NOT NULL,
  h1_title text NOT NULL,
  description text NOT NULL,
  unique_facts text[] NOT NULL DEFAULT '{}',
  landmarks text[] NOT NULL DEFAULT '{}',
  median_home_price_cents bigint CHECK (median_home_price_cents > 0),
  featured_image text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX towns_county_idx ON towns (county, name);

CREATE TABLE town_market_data (
  town_slug text PRIMARY KEY REFERENCES towns (slug) ON DELETE CASCADE,
  typical_home_value_cents bigint,
  for_sale_inventory integer,
  -- Year-over-year change as the sentence shown on the page.
  description text,
  search_url text,
  -- [{ "dataValue": 612345.67, "timePeriodEnd": "2025-03-31" }, ...] oldest first.
  zhvi_range jsonb NOT NULL DEFAULT '[]',
  last_updated timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE town_sold_homes (
  listing_key text PRIMARY KEY,
  town_slug text NOT NULL REFERENCES towns (slug) ON DELETE CASCADE,
  address text NOT NULL,
  beds integer,
  baths numeric(4, 1),
  sqft integer,
  sold_date date NOT NULL,
  listing_agent text,
  listing_office text,
  price_cents bigint,
  property_type text,
  modification_timestamp timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX town_sold_homes_town_date_idx ON town_sold_homes (town_slug, sold_date DESC);

-- One row: the site's default search-engine values (admins edit them in a later issue).
CREATE TABLE seo_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  seo_title text NOT NULL CHECK (char_length(seo_title) <= 60),
  seo_description text NOT NULL CHECK (char_length(seo_description) <= 160),
  og_title text CHECK (char_length(og_title) <= 90),
  og_description text CHECK (char_length(og_description) <= 200),
  og_image_data text,
  og_image_type text,
  og_url text,
  twitter_card text NOT NULL DEFAULT 'summary_large_image'
    CHECK (twitter_card IN ('summary', 'summary_large_image', 'app', 'player')),
  seo_keywords text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every e-mail the product sends: queued with the write that caused it, then delivered.
CREATE TABLE email_deliveries (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  to_email text NOT NULL,
  to_name text,
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  provider text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  provider_message_id text,
  lead_id integer REFERENCES leads (id) ON DELETE SET NULL,
  estimate_uuid uuid REFERENCES estimates (uuid) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX email_deliveries_due_idx ON email_deliveries (next_attempt_at) WHERE status = 'queued';
