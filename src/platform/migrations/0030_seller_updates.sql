-- Issue 25: the monthly net-proceeds update a seller asks for, and the signals that tell the agent
-- the seller is getting ready. See src/features/seller-updates/ and decision 0056.

-- Site-wide: sending on or off, and the hours (Long Island time) the scheduled run sends in.
ALTER TABLE site_settings
  ADD COLUMN seller_updates_enabled boolean NOT NULL DEFAULT true,
  ADD COLUMN seller_updates_window_start smallint NOT NULL DEFAULT 9
    CHECK (seller_updates_window_start BETWEEN 0 AND 23),
  ADD COLUMN seller_updates_window_end smallint NOT NULL DEFAULT 18
    CHECK (seller_updates_window_end BETWEEN 1 AND 24),
  ADD CONSTRAINT site_settings_seller_updates_window CHECK (seller_updates_window_start < seller_updates_window_end);

-- The agent's own switch for their sellers' updates (/dashboard/updates).
ALTER TABLE agent_settings ADD COLUMN seller_updates_enabled boolean NOT NULL DEFAULT true;

-- One row per lead whose seller ticked "Send me a monthly update of my estimated net".
--   pending       the confirmation e-mail went out; nothing more until its link is followed
--   subscribed    confirmed: updates are due at next_due_at (NULL once the seller went cold)
--   paused        the agent paused this seller; nothing is sent until resumed
--   unsubscribed  the seller ended it (a link, a one-click List-Unsubscribe, the suppression list)
-- The cadence lives in updates_since_click: monthly below 3, quarterly from 3, none from 6 (cold:
-- next_due_at NULL); a click sets it to 0 and, when cold, makes the next update due again.
CREATE TABLE seller_updates (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  lead_id integer NOT NULL UNIQUE REFERENCES leads (id) ON DELETE CASCADE,
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  -- Lower-cased, as the suppression list holds it.
  email text NOT NULL CHECK (email = lower(email)),
  -- The estimate the updates re-price: the lead's when it opted in, the newer one when the seller re-runs.
  estimate_uuid uuid REFERENCES estimates (uuid) ON DELETE SET NULL,
  -- The index it is re-priced by: the town's ZHVI, else the county's (the median of its towns' moves).
  town_slug text REFERENCES towns (slug) ON DELETE SET NULL,
  county text CHECK (county IN ('Nassau', 'Suffolk')),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'subscribed', 'paused', 'unsubscribed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  paused_at timestamptz,
  ended_at timestamptz,
  -- Why it ended: 'link' (the update's unsubscribe link), 'suppressed' (the address is on the suppression list).
  ended_reason text,
  next_due_at timestamptz,
  updates_sent integer NOT NULL DEFAULT 0 CHECK (updates_sent >= 0),
  updates_since_click integer NOT NULL DEFAULT 0 CHECK (updates_since_click >= 0),
  last_sent_at timestamptz,
  -- The price and net last told to the seller (at opt-in: the estimate's), for "the change since".
  last_price_cents bigint,
  last_net_cents bigint,
  last_click_at timestamptz,
  -- When the seller last became active (two clicks in 14 days, a re-run, a higher net asked for).
  active_at timestamptz,
  -- The agent's last alert about this seller: at most one a week.
  alerted_at timestamptz,
  -- The last due update not sent, and why ('not_moved', 'no_market_data', 'no_estimate', 'suppressed', ...).
  last_skip_reason text,
  last_skipped_at timestamptz
);
CREATE INDEX seller_updates_due_idx ON seller_updates (next_due_at) WHERE state = 'subscribed';
CREATE INDEX seller_updates_agent_idx ON seller_updates (agent_id, state);
CREATE INDEX seller_updates_email_idx ON seller_updates (email);

-- Each update sent: one per subscription and period (the n-th update), written in the statement
-- that queues its e-mail and moves next_due_at, so two runs at once cannot both send period n.
CREATE TABLE seller_update_sends (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id integer NOT NULL REFERENCES seller_updates (id) ON DELETE CASCADE,
  period integer NOT NULL CHECK (period >= 1),
  delivery_id integer REFERENCES email_deliveries (id) ON DELETE SET NULL,
  -- The new estimate "See my updated sheet" opens: the re-priced price with today's terms.
  estimate_uuid uuid REFERENCES estimates (uuid) ON DELETE SET NULL,
  price_cents bigint NOT NULL,
  net_cents bigint NOT NULL,
  previous_net_cents bigint,
  index_source text NOT NULL CHECK (index_source IN ('town', 'county')),
  sent_at timestamptz NOT NULL,
  UNIQUE (subscription_id, period)
);
CREATE INDEX seller_update_sends_sent_idx ON seller_update_sends (sent_at);

-- What the seller did: a followed link of an update (signed), a re-run of the estimate, a higher net.
CREATE TABLE seller_signals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id integer NOT NULL REFERENCES seller_updates (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('confirm', 'click_sheet', 'click_agent', 'sheet_visit', 'rerun', 'higher_net')),
  send_id integer REFERENCES seller_update_sends (id) ON DELETE SET NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX seller_signals_subscription_idx ON seller_signals (subscription_id, at DESC);
CREATE INDEX seller_signals_at_idx ON seller_signals (at);
