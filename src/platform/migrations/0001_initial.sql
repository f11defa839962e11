-- Agents, their calculator settings, site-wide settings, estimates and leads.
-- Money is stored as integer cents (bigint: prices reach $100,000,000).

CREATE TABLE agents (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  -- Null for the seeded featured agent until agent accounts exist.
  password_hash text,
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+$'),
  brokerage text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('active', 'inactive', 'pending')),
  is_admin boolean NOT NULL DEFAULT false,
  license_number text,
  website text,
  professional_title text CHECK (
    professional_title IN ('Broker/Principal Broker', 'Licensed Associate Broker', 'Licensed Real Estate Salesperson')
  ),
  brokerage_street text,
  brokerage_city text,
  brokerage_state text,
  brokerage_zip text,
  show_profile_photo boolean NOT NULL DEFAULT false,
  show_logo boolean NOT NULL DEFAULT false,
  profile_photo text,
  logo text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX agents_email_key ON agents (lower(email));

-- Null calculator values mean "use the system defaults" (see src/features/estimate/estimate.ts).
CREATE TABLE agent_settings (
  agent_id integer PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
  default_attorney_fee_cents bigint CHECK (default_attorney_fee_cents >= 0),
  default_recording_fee_cents bigint CHECK (default_recording_fee_cents >= 0),
  transfer_tax_rate_per_1000 numeric(6, 2) CHECK (transfer_tax_rate_per_1000 >= 0),
  default_commission_percent numeric(5, 2) CHECK (default_commission_percent BETWEEN 0 AND 100),
  website_logo text,
  website_logo_scale numeric(2, 1) CHECK (website_logo_scale BETWEEN 0.5 AND 2.0),
  website_logo_type text,
  town_page_logo text,
  town_page_logo_type text,
  show_town_page_logo boolean NOT NULL DEFAULT false,
  showcase_property_price_cents bigint,
  showcase_property_address text,
  showcase_property_beds integer CHECK (showcase_property_beds >= 1),
  showcase_property_baths numeric(4, 1) CHECK (showcase_property_baths >= 1),
  showcase_property_sqft integer CHECK (showcase_property_sqft >= 1),
  showcase_images text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row: the site's global logo and the home page showcase.
CREATE TABLE site_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  website_logo text,
  website_logo_scale numeric(2, 1) NOT NULL DEFAULT 1 CHECK (website_logo_scale BETWEEN 0.5 AND 2.0),
  website_logo_type text NOT NULL DEFAULT 'png',
  town_page_logo text,
  town_page_logo_type text,
  show_town_page_logo boolean NOT NULL DEFAULT false,
  showcase_property_price_cents bigint NOT NULL,
  showcase_property_address text NOT NULL,
  showcase_property_beds integer NOT NULL CHECK (showcase_property_beds >= 1),
  showcase_property_baths numeric(4, 1) NOT NULL CHECK (showcase_property_baths >= 1),
  showcase_property_sqft integer NOT NULL CHECK (showcase_property_sqft >= 1),
  showcase_images text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- An estimate keeps its inputs and the agent's rates and fees as they were when it was made, so a
-- later change of settings never changes an estimate a seller already shared.
CREATE TABLE estimates (
  uuid uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  sale_price_cents bigint NOT NULL CHECK (sale_price_cents > 0),
  mortgage_payoff_cents bigint NOT NULL CHECK (mortgage_payoff_cents >= 0),
  commission_percent numeric(5, 2) NOT NULL,
  transfer_tax_rate_per_1000 numeric(6, 2) NOT NULL,
  attorney_fee_cents bigint NOT NULL,
  recording_fee_cents bigint NOT NULL,
  recipient_name text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX estimates_agent_created_idx ON estimates (agent_id, created_at DESC);

CREATE TABLE leads (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  email text NOT NULL,
  phone text,
  address text,
  message text,
  source text NOT NULL CHECK (source IN ('showcase', 'calculator', 'nassau_county_page', 'suffolk_county_page')),
  consent_marketing boolean NOT NULL,
  estimate_uuid uuid REFERENCES estimates (uuid) ON DELETE SET NULL,
  email_body text,
  synced_to_fub boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leads_agent_created_idx ON leads (agent_id, created_at DESC);
